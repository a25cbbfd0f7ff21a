"""docs/ops.md's table of every Triton language name is generated from the
front end's tables (python -m tilescope.ops_doc); it must match them."""
from tilescope import ops_doc


def test_the_generated_section_of_ops_md_matches_the_code():
    assert ops_doc.main(["--check"]) == 0, "run: PYTHONPATH=python:build/python python3 -m tilescope.ops_doc"


def test_every_supported_name_is_one_the_front_end_maps():
    from tilescope import builtins
    for name in ops_doc.TRITON_NAMES:
        status, _ = ops_doc.status(name)
        if name in builtins.REFUSED:
            assert status == "named error"
        if status == "supported" and name in builtins.TABLE:
            assert callable(builtins.TABLE[name])
