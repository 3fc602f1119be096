"""simkit.borrow: views that count no references read and write the arrays they borrow."""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np
import pytest

from simkit.borrow import borrowed


@nb.njit
def _fill_borrowed(a, value):
    b = borrowed(a)
    for i in range(b.shape[0]):
        b[i] = value
    return b.sum()


@nb.njit
def _sum_pairs(pairs):
    (x, (y, z)) = borrowed(pairs)
    return x.sum(), y.sum(), z[1, 0]


@nb.njit
def _borrowed_meminfo_is_null(a):
    return _meminfo_is_null(borrowed(a)), _meminfo_is_null(a)


def _meminfo_is_null_impl(context, builder, sig, args):
    from numba.core import cgutils
    from numba.np.arrayobj import make_array

    ary = make_array(sig.args[0])(context, builder, value=args[0])
    null = cgutils.get_null_value(ary.meminfo.type)
    return builder.icmp_unsigned("==", ary.meminfo, null)


@nb.extending.intrinsic
def _meminfo_is_null(typingctx, arr):
    return nb.types.boolean(arr), _meminfo_is_null_impl


def test_a_borrowed_view_writes_the_array_it_borrows():
    a = np.zeros(7)
    assert _fill_borrowed(a, 2.5) == pytest.approx(17.5)
    assert (a == 2.5).all()
    # a strided view keeps its strides
    b = np.zeros(14)
    _fill_borrowed(b[::2], 1.0)
    assert (b[::2] == 1.0).all() and (b[1::2] == 0.0).all()


def test_tuples_of_arrays_are_borrowed_element_by_element_nested_too():
    x = np.arange(5.0)
    y = np.arange(3, dtype=np.int64)
    z = np.arange(6, dtype=np.int32).reshape(3, 2)
    assert _sum_pairs((x, (y, z))) == (10.0, 3, 2)


def test_a_borrowed_view_carries_no_reference_count():
    """What the views are for: numba skips the count of a view with no meminfo (the array
    itself has one)."""
    assert _borrowed_meminfo_is_null(np.zeros(3)) == (True, False)


def test_only_arrays_and_tuples_of_arrays_are_borrowed():
    @nb.njit
    def borrow_a_number(x):
        return borrowed(x)

    with pytest.raises(nb.core.errors.TypingError):
        borrow_a_number(1.0)


class _Record(NamedTuple):
    values: np.ndarray
    count: int
    flag: bool


@nb.njit
def _fill_record(record, value):
    r = borrowed(record)
    for i in range(r.values.shape[0]):
        r.values[i] = value
    return _meminfo_is_null(r.values), r.count, r.flag


def test_named_tuples_are_borrowed_their_numbers_and_booleans_kept():
    """A record of arrays and scalars (the search walk's ``SolverData``): its arrays are
    borrowed views that write the record's arrays, its numbers and booleans come back as
    they were."""
    a = np.zeros(4)
    assert _fill_record(_Record(a, 7, True), 1.5) == (True, 7, True)
    assert (a == 1.5).all()
