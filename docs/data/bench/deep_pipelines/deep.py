"""Deep-pipeline tile configs at small M: full autotune with them added (argv[1] == 'deep') or not."""
import sys
import swizzlekit.kernels.triton.matmul_configs as mc
from swizzlekit.kernels.triton.tuning import _config_list
DEEP = [(128, 64, 64, 6, 4), (128, 64, 64, 8, 4), (64, 64, 128, 6, 4), (64, 128, 64, 6, 4),
        (128, 128, 64, 5, 8), (64, 64, 64, 8, 4)]
DEEP_SWAP = [(32, 128, 64, 8, 4), (64, 64, 128, 6, 4), (16, 64, 128, 8, 4), (32, 64, 128, 8, 4),
             (64, 128, 64, 8, 4)]
orig = mc._configs
def patched(pre_hook=None, swap=False, flat=False):
    if flat:
        return orig(pre_hook, swap, flat=True)
    base = orig(pre_hook, swap)
    if not swap:
        return base + _config_list(DEEP, pre_hook)
    return base + _config_list(DEEP, pre_hook, SWAP_AB=False) + _config_list(DEEP_SWAP, pre_hook, SWAP_AB=True)
if sys.argv[1] == "deep":
    mc._configs = patched
sys.argv = [sys.argv[0], sys.argv[1]]
exec((__import__("pathlib").Path(__file__).with_name("smallm.py")).read_text())
