import dataclasses
from simkit.phases.settle import fair_bid, seat_bid
from simkit.phases.expected import calibration_deals
from simkit.variants import load_variant
q = load_variant("qiantang")
d = dataclasses.replace(q, phases=dataclasses.replace(q.phases, bidding=dataclasses.replace(q.phases.bidding, fees="dropped")))
for name, v in (("counted", q), ("dropped", d)):
    print(name, fair_bid(v, 3), seat_bid(v, 3), flush=True)
f = calibration_deals(q, 3).fees[:, 0]
print("banker fee mean", f.mean(), f.std(ddof=1) / len(f) ** 0.5)
