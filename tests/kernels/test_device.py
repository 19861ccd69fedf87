"""Which preset a call plans for: a device's name mapped to its preset, and the fallback where
no CUDA device (or none a preset describes) is present."""

import sys

import pytest

from swizzlekit.errors import SwizzleKitError
from swizzlekit.gpus import DEVICE_NAMES, GPUS, preset_of
from swizzlekit.kernels.triton import device


@pytest.mark.parametrize("key", list(GPUS))
def test_every_presets_own_name_names_it(key):
    assert preset_of(GPUS[key].name) == key


@pytest.mark.parametrize("name,key", [
    ("NVIDIA H100 80GB HBM3", "h100-sxm"),         # torch.cuda.get_device_name on our H100s
    ("NVIDIA H200", "h200"), ("NVIDIA H100 PCIe", "h100-pcie"), ("NVIDIA H100 NVL", "h100-sxm"),
    ("NVIDIA A100-SXM4-80GB", "a100"), ("NVIDIA GeForce RTX 4090", "rtx4090"),
    ("NVIDIA B200", None), ("NVIDIA GeForce RTX 3090", None), ("", None)])
def test_device_names(name, key):
    assert preset_of(name) == key


def test_every_rule_names_a_preset():
    assert {key for _, key in DEVICE_NAMES} == set(GPUS)


def test_no_device_plans_for_the_fallback(monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert device.current_gpu() == device.FALLBACK == "h200"


def test_the_device_is_mapped_by_its_name(monkeypatch):
    torch = pytest.importorskip("torch")
    device._preset_of_device.cache_clear()
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    for name, key in [("NVIDIA H100 80GB HBM3", "h100-sxm"), ("NVIDIA B200", "h200"),
                      ("NVIDIA A100-SXM4-80GB", "h200"), ("NVIDIA H100 PCIe", "h100-pcie")]:
        monkeypatch.setattr(torch.cuda, "get_device_name", lambda i, name=name: name)
        device._preset_of_device.cache_clear()
        assert device.current_gpu() == key
    device._preset_of_device.cache_clear()


def test_a_name_must_be_a_string():
    with pytest.raises(SwizzleKitError, match="a device name must be a string; got 3"):
        preset_of(3)


@pytest.mark.parametrize("models,key", [(["NVIDIA H100 80GB HBM3"] * 2, "h100-sxm"),
                                        (["NVIDIA H200"], "h200"),
                                        (["NVIDIA H100 80GB HBM3", "NVIDIA H200"], "h200"),
                                        (["NVIDIA B200"], "h200"), ([], "h200"),
                                        (["NVIDIA GeForce RTX 4090"], "h200")])
def test_without_torch_the_drivers_list_names_the_card(tmp_path, monkeypatch, models, key):
    """Planning on the CPU does not import torch: the driver's GPU list names the card (one
    preset for all of them, else the fallback)."""
    for i, model in enumerate(models):
        (tmp_path / f"0000:{i:02x}:00.0").mkdir()
        (tmp_path / f"0000:{i:02x}:00.0" / "information").write_text(
            f"Model: \t\t {model}\nIRQ:   \t\t 42\n")
    monkeypatch.setattr(device, "PROC_GPUS", tmp_path)
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    device._preset_of_host.cache_clear()
    try:
        assert device.current_gpu() == key
    finally:
        device._preset_of_host.cache_clear()


@pytest.mark.parametrize("key", list(GPUS))
def test_the_gemm_plans_only_for_hopper_presets(key):
    """A card the kernels' TMA and wgmma paths do not run on (or whose peaks the config model
    lacks) is planned as the fallback; every Hopper preset is planned as itself."""
    assert device.planned(key) == (key if GPUS[key].arch == "sm_90" else device.FALLBACK)


def test_the_config_model_names_a_missing_peak():
    from swizzlekit.kernels.triton import choose

    with pytest.raises(SwizzleKitError, match="GPU 'a100' has no fp8 peak rate"):
        choose.predict(4096, 4096, 4096, "fp8", "fp8_tma", "128x128x128/s4/w8", gpu_name="a100")
    for key in ("h200", "h100-sxm", "h100-pcie"):
        for fam, kernel in [("16bit", "tma"), ("tf32", "tma"), ("fp8", "fp8_tma")]:
            assert choose.predict(4096, 4096, 4096, fam, kernel, "128x128x64/s4/w8",
                                  gpu_name=key) > 0
