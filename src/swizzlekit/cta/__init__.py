"""CTA orders and the L2 model. Imports only numpy and the standard library.

>>> from swizzlekit.cta import order, wave_tile_loads
>>> wave_tile_loads(order("grouped", 9, 9, group=3), tiles_k=9, concurrent=9)[0]
54
"""

from swizzlekit.cta.orders import (ORDERS, OrderSpec, check_order, order, persistent_schedule,
                                   seed001_get_swizzle_idx, wave_tile_loads)

__all__ = ["ORDERS", "OrderSpec", "order", "check_order", "persistent_schedule", "seed001_get_swizzle_idx",
           "wave_tile_loads"]
