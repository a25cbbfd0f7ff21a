"""python3 -m tilescope: the Python front end's command line."""
import argparse
import sys


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m tilescope",
        description="Run Triton kernels as they are written, on the CPU, with every load and store "
                    "bounds-checked and recorded.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = sub.add_parser("run", help="run a script with every triton.jit kernel launched through tilescope",
                         description="Runs SCRIPT unchanged; every triton.jit kernel it launches runs in tilescope's "
                                     "interpreter and its findings are printed as they come. Exit status: the "
                                     "script's, else 1 when any launch had an error finding or did not build.")
    run.add_argument("script")
    run.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")
    run.add_argument("--trace", metavar="DIR", help="save every launch's full trace as DIR/NNN_kernel.json")
    run.add_argument("--strict", action="store_true", help="stop each launch at its first finding")
    run.add_argument("--gpu-compare", action="store_true",
                     help="also run each kernel on the GPU (tilescope's CUDA backend) and compare")
    run.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                     help="cpu: the script's CUDA tensors are made in host memory (torch's 'cuda' device "
                          "redirected); cuda: left on the GPU and staged to the host per launch; auto (default): "
                          "cpu where torch sees no GPU")
    run.add_argument("--all-configs", action="store_true",
                     help="autotuned kernels: check every configuration once, not only the first")
    check = sub.add_parser("check", help="check a Python kernel against a puzzle, as `tilescope check` does",
                           description="Loads FILE (with `triton` provided where it is not installed) and checks "
                                       "its function KERNEL against puzzle PUZZLE at every size set and seed.")
    check.add_argument("file")
    check.add_argument("kernel")
    check.add_argument("puzzle")
    check.add_argument("--seeds", default="", help="comma-separated seeds (default: the checker's)")
    check.add_argument("--set", action="append", default=[], help="only this size set (repeatable)")
    check.add_argument("--extra", action="append", default=[], metavar="NAME=VALUE",
                       help="a value for a kernel parameter the puzzle does not have")
    check.add_argument("--json", action="store_true", help="the report as JSON")
    args = parser.parse_args(argv)
    if args.command == "run":
        from .run import run_script
        return run_script(args.script, args.args, args.trace, args.strict, args.gpu_compare, args.device,
                          args.all_configs)
    if args.command == "check":
        return check_command(args)
    parser.print_help()
    return 2


def check_command(args):
    import runpy
    from . import triton_shim
    from .puzzles import check_puzzle
    triton_shim.install()
    try:
        module = runpy.run_path(args.file, run_name="tilescope_check")
    except FileNotFoundError:
        sys.stderr.write(f"tilescope check: error: no such file '{args.file}'\n")
        return 2
    if args.kernel not in module:
        sys.stderr.write(f"tilescope check: error: '{args.file}' has no kernel '{args.kernel}'\n")
        return 2
    extra = {}
    for item in args.extra:
        name, _, value = item.partition("=")
        extra[name] = int(value)
    seeds = [int(s) for s in args.seeds.split(",") if s]
    try:
        passed, text = check_puzzle(args.puzzle, module[args.kernel], seeds, args.set, extra, args.json)
    except ValueError as e:
        sys.stderr.write(f"tilescope check: error: {e}\n")
        return 2
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
