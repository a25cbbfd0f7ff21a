"""Differences between Triton (recorded on a GPU) and tilescope that stay,
each with its cause; docs/fidelity.md explains each. compare.py counts a
case listed here as 'expected' only while it differs exactly as listed
(same outputs, same elements), so a fix or a change shows up."""

EXPECTED_DIFFERENCES = {}
