// The C++ block-pointer kernels of the tests (tests/block_ptr_kernels.h),
// for the Python tests that run their Python twins beside them and compare
// the traces. Built only with the tests (TILESCOPE_TESTS).
#include <pybind11/pybind11.h>

#include <memory>

#include "block_ptr_kernels.h"
#include "convert.h"
#include "kernel.h"

namespace tilescope_py {

namespace py = pybind11;

void bind_test_kernels(py::module_& m) {
  m.def("test_kernel_def", [](const std::string& name) -> py::object {
    static const tl::KernelDef pack2("pack2", bp_kernels::pack2, {"codes", "words", "R", "W", "BR", "BW"});
    static const tl::KernelDef unpack2("unpack2", bp_kernels::unpack2, {"words", "codes", "R", "W", "BR", "BW"});
    static const tl::KernelDef matmul("bp_matmul", bp_kernels::bp_matmul, {"a", "b", "c", "M", "N", "K", "BM", "BN", "BK"});
    static const tl::KernelDef tail("tail_copy", bp_kernels::tail_copy, {"src", "dst", "R", "C", "BR", "BC"});
    static const tl::KernelDef broken("tail_copy_broken", bp_kernels::tail_copy_broken, {"src", "dst", "R", "C", "BR", "BC"});
    const tl::KernelDef* k = name == "pack2" ? &pack2 : name == "unpack2" ? &unpack2 : name == "bp_matmul" ? &matmul
                           : name == "tail_copy" ? &tail : name == "tail_copy_broken" ? &broken : nullptr;
    if (!k) return py::none();
    return borrowed(k);
  });
}

}  // namespace tilescope_py
