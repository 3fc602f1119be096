"""Borrowed arrays: views that count no references, for the hot loops of the search kernels.

Every numba array carries a pointer to its memory's reference count (its *meminfo*), and
numba keeps that count exact: each time an array is bound to a new variable (an argument of
an inlined helper, a view such as ``qs[k]``) it increments the count, and decrements it when
the variable dies.  Both are atomic instructions, some 20 cycles each.  numba's pass that
prunes such pairs gives up in loops with early exits, so the search kernels, whose helpers
take a dozen arrays each and run per back and per split, spent a large share of their time
counting.

:func:`borrowed` returns an array, or a tuple of arrays (nested tuples too), as views of the
same memory with no meminfo: numba then skips the count (its increment and decrement test the
pointer first).  A borrowed view must not outlive the arrays it was made from: a kernel
borrows its own arguments, which its caller holds for the whole call, and never returns or
stores a borrowed view.  Scratch arrays a kernel allocates are allocated by its caller (a
thin njit function that allocates and calls the kernel), so that they too are arguments.
"""

from __future__ import annotations

from typing import Any

from numba.core import cgutils, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array


def _borrow_value(context: Any, builder: Any, ty: Any, value: Any) -> Any:
    if isinstance(ty, types.Array):
        ary = make_array(ty)(context, builder, value=value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    if isinstance(ty, (types.Number, types.Boolean, types.Record)):
        # held by value, or a record: a bare pointer into its array, no count to skip
        return value
    items = [
        _borrow_value(context, builder, item_ty, builder.extract_value(value, i))
        for i, item_ty in enumerate(ty.types)
    ]
    return context.make_tuple(builder, ty, items)


def _borrowable(ty: Any) -> bool:
    if isinstance(ty, types.Array):
        return True
    items = getattr(ty, "types", None) if isinstance(ty, types.BaseTuple) else None
    return items is not None and all(
        _borrowable(t) or isinstance(t, (types.Number, types.Boolean, types.Record)) for t in items
    )


@intrinsic
def borrowed(typingctx: Any, arrays: Any) -> Any:
    """``arrays`` (an array, or a tuple of arrays, nested tuples and named tuples too, where
    numbers, booleans and records may sit beside the arrays) as views of the same memory that
    count no references; see the module's notes for when that is safe."""
    if not _borrowable(arrays):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return _borrow_value(context, builder, sig.args[0], args[0])

    return arrays(arrays), codegen
