"""qiantang's fair 抢庄 bid at 3 players with the 换牌 fees counted and dropped.

    python -m experiments.studies.fair_bid_fees [--players 3]

At three players the banker pays two fees when it buys the new cards and receives one when a
player buys (004); ``[phases.bidding] fees`` says whether the fair bid counts them.  For both
readings this prints the banker's edge on the calibration deals (``fair_bid``), the bid a seat
makes, and the banker's mean fee with its standard error.  The figures are in
``results/rules/changes.md``.
"""

from __future__ import annotations

import argparse
import dataclasses

from simkit.phases.expected import calibration_deals
from simkit.phases.settle import fair_bid, seat_bid
from simkit.variants import load_variant


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=3, help="players at the table")
    args = parser.parse_args(argv)
    qiantang = load_variant("qiantang")
    bidding = dataclasses.replace(qiantang.phases.bidding, fees="dropped")
    dropped = dataclasses.replace(
        qiantang, phases=dataclasses.replace(qiantang.phases, bidding=bidding)
    )
    for name, variant in (("counted", qiantang), ("dropped", dropped)):
        edge, se = fair_bid(variant, args.players)
        bid = seat_bid(variant, args.players)
        print(f"fees {name}: edge {edge:.4f} (se {se:.4f}), seat bid {bid}")
    fees = calibration_deals(qiantang, args.players).fees[:, 0]
    print(f"banker's mean fee {fees.mean():.4f} (se {fees.std(ddof=1) / fees.size**0.5:.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
