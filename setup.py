"""Package discovery for npu-opt: the repository keeps its layers (ir/, hardware/, dialects/, interpreters/, passes/, tools/) at its top,
and the wheel installs them under the one namespace ``npu_opt`` (``npu_opt.ir``, ``npu_opt.passes``, ...),
so nothing but ``npu_opt`` and its metadata lands at the top of site-packages. The weight codec's hot
loops are a small C extension (hardware/codec/mlw_core.c), built with the system C compiler."""
from setuptools import Extension, find_packages, setup

LAYERS = ("ir", "hardware", "dialects", "interpreters", "passes", "tools")

found = find_packages(include=[pattern for layer in LAYERS for pattern in (layer, f"{layer}.*")])
setup(
    packages=[f"npu_opt.{name}" for name in found],
    package_dir={f"npu_opt.{layer}": layer for layer in LAYERS},
    package_data={"npu_opt.ir": ["*.lark"]},
    ext_modules=[Extension("npu_opt.hardware.codec.mlw_core",
                           ["hardware/codec/mlw_core.c", "hardware/codec/mlw_sections.c"],
                           depends=["hardware/codec/mlw_sections.h"], extra_compile_args=["-O3"])],
)
