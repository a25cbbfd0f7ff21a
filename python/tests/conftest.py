# The Python front end's tests. Run by CTest (python_tests) with
# PYTHONPATH=python:build/python, or by hand the same way:
#   PYTHONPATH=python:build/python python3 -m pytest python/tests
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
