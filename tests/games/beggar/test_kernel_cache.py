"""The compiled kernels' numba cache (``parlour.core.kernel_cache``): every function of a kernel
carries one stamp, the digest of all the kernel's sources and of the generator it inlines, so a
change to any of them compiles the kernel again; the shared generator keeps numba's own check,
so the two games' kernels never stamp it in turn."""

from __future__ import annotations

from types import ModuleType

from parlour.core import kernel_cache, splitmix
from parlour.games.beggar import _backward, _batch, _bits, _engine, _random, fast
from parlour.games.death import _kernel, _policies, playout


def _stamps(modules: tuple[ModuleType, ...]) -> set[bytes]:
    return {
        value._cache._cache_file._source_stamp
        for module in modules
        for value in vars(module).values()
        if getattr(getattr(value, "py_func", None), "__module__", None) == module.__name__
        and hasattr(getattr(getattr(value, "_cache", None), "_cache_file", None), "_source_stamp")
    }


def test_each_kernel_has_one_stamp_of_its_sources_and_the_generator() -> None:
    assert fast.__name__ and playout.__name__  # importing them stamps the kernels
    beggar = (_random, _engine, _bits, _batch, _backward)
    death = (_kernel, _policies)
    assert _stamps(beggar) == {kernel_cache.kernel_stamp([*beggar, splitmix])}
    assert _stamps(death) == {kernel_cache.kernel_stamp([*death, splitmix])}


def test_the_shared_generator_keeps_numbas_own_check() -> None:
    """Neither game's stamp lands on the generator both inline."""
    shared = _stamps((splitmix,))
    assert shared and not shared & (_stamps((_engine,)) | _stamps((_kernel,)))
