"""qiantang's fair 抢庄 bid at 3 players with the 换牌 fees counted and dropped (issue 52.3),
and the banker's mean fee, on the calibration deals: ``PYTHONPATH=. python
results/rules/bid3.py`` (one process; the figures are in results/rules/changes.md)."""

import dataclasses

from simkit.phases.expected import calibration_deals
from simkit.phases.settle import fair_bid, seat_bid
from simkit.variants import load_variant

qiantang = load_variant("qiantang")
bidding = dataclasses.replace(qiantang.phases.bidding, fees="dropped")
dropped = dataclasses.replace(
    qiantang, phases=dataclasses.replace(qiantang.phases, bidding=bidding)
)
for name, variant in (("counted", qiantang), ("dropped", dropped)):
    edge, se = fair_bid(variant, 3)
    print(f"fees {name}: edge {edge:.4f} (se {se:.4f}), seat bid {seat_bid(variant, 3)}")
fees = calibration_deals(qiantang, 3).fees[:, 0]
print(f"banker's mean fee {fees.mean():.4f} (se {fees.std(ddof=1) / fees.size**0.5:.4f})")
