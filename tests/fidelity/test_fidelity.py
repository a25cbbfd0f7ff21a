"""The differential corpus as tests (CTest: fidelity_tests; no GPU needed):
every case recorded with real Triton runs through tilescope's Python front
end and interpreter on the recorded inputs and must match Triton's outputs
(compare.py says how), differ exactly as EXPECTED_DIFFERENCES lists, or
name an op tilescope does not implement yet (skipped, listed at the end)."""
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import compare  # noqa: E402
from expected import EXPECTED_DIFFERENCES  # noqa: E402

HAVE_RECORDS = os.path.exists(os.path.join(compare.RECORDS, "manifest.json"))
RECORDS = compare.Records() if HAVE_RECORDS else None
NAMES = sorted(RECORDS.manifest["cases"]) if HAVE_RECORDS else []
OUTCOMES = {}


def test_records_exist_and_name_their_triton():
    assert HAVE_RECORDS, "tests/fidelity/records/manifest.json is missing: gpu_run.sh record makes it"
    env = RECORDS.manifest["environment"]
    assert env["triton"] and env["gpu"] != "none", env
    assert len(NAMES) >= 80


@pytest.mark.parametrize("name", NAMES)
def test_case(name):
    case = compare.setup()["cases"].get(name)
    if case is not None and any(a.dtype == "bf16" for a in case.inputs() + case.outputs()) and \
            compare._torch() is None:
        pytest.skip("bf16 buffers need torch (python3-torch), not installed here")
    o = compare.compare_case(name, RECORDS)
    OUTCOMES[name] = o
    if o.status == "skipped":
        pytest.skip(f"{name}: {o.detail}")
    assert o.status in ("equal", "within", "expected", "both_reject"), f"{o.name}: {o.status}\n{o.detail}"


def test_every_expected_difference_names_a_recorded_case_and_a_cause():
    for name, exp in EXPECTED_DIFFERENCES.items():
        assert name in NAMES, f"EXPECTED_DIFFERENCES lists '{name}', which is not recorded"
        assert exp.get("cause"), name
        assert exp.get("kind") in ("values", "triton_rejects", "tilescope_rejects"), name


def test_every_case_bound_is_in_the_ulp_table():
    for case in compare.setup()["cases"].values():
        for out in case.outputs():
            assert case.bound_for(out.name) in compare.ULP_BOUNDS, (case.name, out.name)


def test_ulp_distance_counts_units_in_the_last_place():
    one = np.array([1.0, 1.0, 0.0, np.nan, -1.0], dtype=np.float32)
    nxt = np.array([np.nextafter(np.float32(1), np.float32(2)), np.nextafter(np.float32(1), np.float32(0)),
                    -0.0, np.nan, -1.0], dtype=np.float32)
    idx, worst = compare.diff_elements(one, nxt, "f32", 1)
    assert list(idx) == [] and worst == 1
    idx, _ = compare.diff_elements(one, nxt, "f32", 0)
    assert list(idx) == [0, 1, 2]  # a bound of 0 wants the same bits: -0.0 is not +0.0
    idx, _ = compare.diff_elements(np.array([np.nan], np.float64), np.array([1.0]), "f64", 4)
    assert list(idx) == [0]
    a = np.array([-2.0 ** -149], dtype=np.float32)
    idx, worst = compare.diff_elements(a, np.array([2.0 ** -149], dtype=np.float32), "f32", 2)
    assert list(idx) == [] and worst == 2  # across zero: -min_subnormal, 0, +min_subnormal
    bf = np.array([0x3F80, 0x3F81], dtype=np.uint16)
    assert list(compare.diff_elements(bf[:1], bf[1:], "bf16", 0)[0]) == [0]


def test_not_yet_errors_are_recognised_and_nothing_else():
    assert compare.not_yet("k.py:3:4: error: tl.cumsum is not supported by tilescope yet") == "cumsum"
    assert compare.not_yet("k.py:3:4: error: module 'triton.language' has no attribute 'sort'") == "sort"
    assert compare.not_yet("k.py:3:4: error: a tile of i8 cannot be added to a pointer") is None


def test_expected_differences_must_stay_exactly_as_listed(monkeypatch):
    listed = {"x": {"kind": "values", "diffs": {"o": [1, 2]}, "cause": "c"}}
    monkeypatch.setattr(compare, "EXPECTED_DIFFERENCES", listed)
    same = compare.Outcome("x", "differ", diffs={"o": [1, 2]})
    assert compare._expected("x", same).status == "expected"
    changed = compare.Outcome("x", "differ", diffs={"o": [1]})
    assert compare._expected("x", changed).status == "differ"
    rejects = compare.Outcome("x", "differ", kind="tilescope_rejects")
    assert compare._expected("x", rejects).status == "differ"
    assert compare._expected("y", same).status == "differ"  # not listed
