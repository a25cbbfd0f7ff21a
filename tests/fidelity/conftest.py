# The corpus's pytest summary: how many cases compared, and which were
# skipped because tilescope lacks their op (they run once it has it).
import sys


def pytest_terminal_summary(terminalreporter):
    mod = sys.modules.get("test_fidelity")
    if mod is None or not getattr(mod, "OUTCOMES", None):
        return
    import compare
    outcomes = mod.OUTCOMES
    skipped = sorted(n for n, o in outcomes.items() if o.status == "skipped")
    terminalreporter.write_line(f"fidelity: {len(outcomes)} cases: " + ", ".join(
        f"{k} {v}" for k, v in sorted(compare.summary(outcomes.values()).items())))
    terminalreporter.write_line(f"fidelity: skipped {len(skipped)} (op not in tilescope yet): {' '.join(skipped)}")
