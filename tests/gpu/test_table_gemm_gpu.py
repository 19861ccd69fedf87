"""GPU tier: the order-table GEMM on the GPU: ragged shapes, every registered order, every
tile config and element type of the L2 sweep, persistent grids; and the residency calculator
against the driver's own occupancy answer for each compiled config."""

import pytest

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("m,n,k", [(1000, 1100, 300), (4096, 4096, 512), (129, 4097, 64)])
def test_every_order_on_gpu(m, n, k):
    from swizzlekit.cta import ORDERS, order
    from swizzlekit.lab.verify import check_table_gemm as check

    for name in ORDERS:
        err = check(m, n, k, order(name, -(-m // 128), -(-n // 128)))
        assert err == err and err < 1e-2, name


COMBOS = [("128x128x64", "float16"), ("64x64x64", "float16"), ("128x256x64", "float16"),
          ("256x128x64", "float16"), ("128x128x32", "float32"), ("64x128x64", "bfloat16"),
          ("128x128x128", "float8_e4m3fn")]
BOUND = {"float16": 1e-2, "bfloat16": 2e-2, "float32": 1e-3, "float8_e4m3fn": 1e-2}


@pytest.mark.parametrize("config,dtype", COMBOS)
@pytest.mark.parametrize("persistent", [False, True])
def test_configs_dtypes_and_persistent_grids(config, dtype, persistent):
    import torch

    from swizzlekit.cta import order
    from swizzlekit.kernels.triton.table_gemm import tile_config
    from swizzlekit.lab.verify import check_table_gemm as check

    cfg = tile_config(config)
    m, n, k = 1000, 3000, 1000
    o = order("grouped", -(-m // cfg.bm), -(-n // cfg.bn), group=4)
    err = check(m, n, k, o, dtype=getattr(torch, dtype), config=config, persistent=persistent)
    assert err == err and err < BOUND[dtype]


@pytest.mark.parametrize("config,dtype", COMBOS)
@pytest.mark.parametrize("persistent", [False, True])
def test_residency_matches_the_driver(config, dtype, persistent):
    """gpus.residency on the compiled kernel's registers and shared memory equals
    cuOccupancyMaxActiveBlocksPerMultiprocessor for the same function."""
    from cuda.bindings import driver

    from swizzlekit.kernels.triton import table_gemm as tg

    res = tg.resources(config, dtype, persistent)
    fn = _function(config, dtype, persistent)
    err, blocks = driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
        fn, res["threads"], res["smem_bytes"])
    assert err == driver.CUresult.CUDA_SUCCESS
    assert res["ctas_per_sm"] == blocks, res


def _function(config, dtype, persistent):
    """The CUfunction of the compiled order-table kernel for ``config`` and ``dtype``."""
    from cuda.bindings import driver

    from swizzlekit.kernels.triton import table_gemm as tg

    return driver.CUfunction(int(tg.compiled(config, dtype, persistent).function))


@pytest.mark.parametrize("shape,config,dtype,persistent,programs", [
    ((4096, 4096, 4096), "128x128x64", "float16", False, None),
    ((4096, 4096, 4096), "128x128x64", "float16", True, 132),
    ((3000, 5000, 4000), "64x128x64", "float16", False, None),
    ((5000, 3000, 1000), "128x128x128", "float8_e4m3fn", True, 264),
    ((6000, 7000, 3000), "128x256x64", "float16", False, None),
    ((6000, 7001, 3001), "128x256x64", "float16", False, None),
    ((5000, 3000, 1004), "128x128x32", "float32", False, None),
    ((1024, 1024, 65536), "128x128x32", "float32", True, 264)])
def test_resources_are_those_of_the_launched_kernel(shape, config, dtype, persistent, programs):
    """resources(shape=, programs=) compiles a small stand-in whose integer arguments Triton
    specializes as the launch's, and reports what the launch itself compiled: registers,
    spills and shared memory (a ragged K of 16-byte rows takes the aligned kernel's loads by
    the launcher's hint, and an odd one loads by element; a persistent grid keeps its tile
    loop, which the one-tile, one-program kernel compiled away)."""
    import torch

    from swizzlekit.cta import order
    from swizzlekit.kernels.triton import table_gemm as tg

    M, N, K = shape
    cfg = tg.tile_config(config)
    dt = getattr(torch, dtype)
    a = torch.randn(M, K, device="cuda").to(dt)
    b = (torch.randn(N, K, device="cuda").to(dt).T if dtype == "float8_e4m3fn"
         else torch.randn(K, N, device="cuda").to(dt))
    o = order("row", -(-M // cfg.bm), -(-N // cfg.bn))
    kernel = tg._run(a, b, o, None, config, persistent, programs)[1]
    res = tg.resources(config, dtype, persistent, shape=shape, programs=programs)
    assert (res["regs_per_thread"], res["spill_bytes"], res["smem_bytes"]) == (
        kernel.n_regs, kernel.n_spills, kernel.metadata.shared)


def test_report_times_its_orders_in_replicates(tmp_path, monkeypatch):
    """``report --measure``'s order-times step on small shapes outside the L2 sweep: every
    order of the step's choice, 5 replicates each, each run checked against float64."""
    from swizzlekit.report import collect, measured

    monkeypatch.setattr(collect, "SHAPES", ((1024, 1024, 512), (1536, 1024, 1024)))
    out = measured.order_times(tmp_path, "h100-sxm")
    rows = out["rows"]
    assert {(r["M"], r["N"], r["K"]) for r in rows} == set(collect.SHAPES)
    assert all(len(r["times"]) == 5 and r["ms_min"] <= r["ms"] <= r["ms_max"] for r in rows)
    assert all(r["rel_err"] < 1e-2 for r in rows)
    assert {r["order"] for r in rows} >= {"row", "grouped"}


@pytest.mark.parametrize("programs", [None, 40])
def test_the_traced_twin_computes_and_traces_every_tile(programs):
    """``table_trace.traced``: C as the plain kernel's, against float64, and one trace row a
    tile slot: an SM id of this GPU, a start no later than the end, every slot written."""
    import torch

    from swizzlekit.cta import order
    from swizzlekit.kernels.triton.table_trace import traced

    torch.manual_seed(0)
    m, n, k = 1000, 1100, 300
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    o = order("hilbert", -(-m // 128), -(-n // 128))
    c, trace, _ = traced(a, b, o, programs=programs)
    ref = a.double() @ b.double()
    assert float((c.double() - ref).norm() / ref.norm()) < 1e-2
    trace = trace.cpu()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    assert len(trace) == len(o)
    assert ((trace[:, 0] >= 0) & (trace[:, 0] < sms)).all()
    assert (trace[:, 1] > 0).all() and (trace[:, 1] <= trace[:, 2]).all()
    if programs is not None:
        assert len(set(trace[:, 0].tolist())) <= programs
