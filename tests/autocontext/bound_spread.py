"""How far another C library's last bits can move autocontext's interval
bounds: the measurement behind numi's tolerance off glibc
(docs/autocontext.md, "The comparison"; `bound_tolerance_ulps` in
src/kinds/autocontext/comparison.rs).

Usage: bound_spread.py [INTERVALS_PER_DEGREES] [SEED]

Reruns autocontext's own `paired_confidence_interval` with every result of
`math.log`, `math.log1p` and `math.exp` moved by an ulp (all up, all down,
then eight times at random), as a C library other than glibc, faithful
like it (within an ulp of the exact value), may return it. CPython's
`math.lgamma` computes its Lanczos sum in C; it is written out here, with
the same constants and operations, so that its logs move too. For each
interval it prints nothing; at the end, the largest distance of a bound
from glibc's, beyond two ulps of the bound for the final addition, in ulps
of the half-width, divided by `4 P + 32`, where `P` is numi's propagated
bound (`1/v + 1/t^2` times the size of the incomplete beta's terms).
"""

import math
import random
import statistics
import sys
import types

import autocontext.analytics.paired_statistics as paired

LANCZOS_G = 6.024680040776729583740234375
NUMERATOR = [
    23531376880.410759688572007674451636754734846804940, 42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843, 17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708, 1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801, 31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768, 186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024, 210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408,
]
DENOMINATOR = [0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0, 13339535.0, 2637558.0,
               357423.0, 32670.0, 1925.0, 66.0, 1.0]

moves = {"how": 0}
chance = random.Random(1)


def moved(result: float) -> float:
    how = moves["how"]
    if how == 0 or not math.isfinite(result) or result == 0.0:
        return result
    step = chance.choice((-1, 0, 1)) if how == 2 else how
    if step == 0:
        return result
    return math.nextafter(result, math.inf if step > 0 else -math.inf)


def log(value: float) -> float:
    return moved(math.log(value))


def lanczos_sum(x: float) -> float:
    numerator = denominator = 0.0
    if x < 5.0:
        for index in range(12, -1, -1):
            numerator = numerator * x + NUMERATOR[index]
            denominator = denominator * x + DENOMINATOR[index]
    else:
        for index in range(13):
            numerator = numerator / x + NUMERATOR[index]
            denominator = denominator / x + DENOMINATOR[index]
    return numerator / denominator


def lgamma(x: float) -> float:
    if x == math.floor(x) and x <= 2.0:
        return 0.0
    if x < 1e-20:
        return -log(x)
    result = log(lanczos_sum(x)) - LANCZOS_G
    return result + (x - 0.5) * (log(x + LANCZOS_G - 0.5) - 1.0)


def propagated(degrees: int, critical: float) -> float:
    """numi's P, before the two ulps of erfc's exp."""
    alpha, beta = degrees / 2.0, 0.5
    value = degrees / (degrees + critical * critical)
    terms = ((alpha + beta) * math.log(alpha + beta + LANCZOS_G) + alpha * math.log(alpha + LANCZOS_G)
             + beta * math.log(beta + LANCZOS_G) + alpha * abs(math.log(value))
             + beta * abs(math.log1p(-value)) + 3)
    return (1 / degrees + 1 / (critical * critical)) * terms


def main() -> None:
    assert all(lgamma(x) == math.lgamma(x) for x in (0.5, 1.5, 2.5, 7.0, 100.5, 100000.5, 3.0, 1000.0))
    library = types.SimpleNamespace(**{name: getattr(math, name) for name in dir(math) if not name.startswith("_")})
    library.log = log
    library.log1p = lambda value: moved(math.log1p(value))
    library.exp = lambda value: moved(math.exp(value))
    library.lgamma = lgamma
    paired.math = library
    per_degrees = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    draw = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 51)
    worst = (0.0, None)
    for degrees in (1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 300, 377, 610, 987, 3000, 10000, 30000):
        for _ in range(per_degrees):
            effects = [draw.gauss(draw.choice([0.0, 0.05, 0.3]), draw.choice([0.01, 0.1, 0.5]))
                       for _ in range(degrees + 1)]
            z = draw.choice([0.05, 0.3, 1.0, 1.96, 2.241402727605, 2.576, 3.0, 4.0, 6.0, 8.0])
            looks = draw.choice([1, 1, 4, 20, 1000])
            moves["how"] = 0
            paired._student_t_upper_quantile.cache_clear()
            mean, low, high = paired.paired_confidence_interval(effects, z, max_looks=looks)
            half_width = (high - low) / 2
            critical = half_width / (statistics.stdev(effects) / math.sqrt(degrees + 1))
            allowed = 4 * propagated(degrees, critical) + 32
            for how in (1, -1, 2, 2, 2, 2, 2, 2, 2, 2):
                moves["how"] = how
                paired._student_t_upper_quantile.cache_clear()
                _, low_elsewhere, high_elsewhere = paired.paired_confidence_interval(effects, z, max_looks=looks)
                beyond = max(
                    abs(low_elsewhere - low) - 2 * math.ulp(max(abs(low), abs(low_elsewhere))),
                    abs(high_elsewhere - high) - 2 * math.ulp(max(abs(high), abs(high_elsewhere))),
                    0.0,
                )
                ratio = beyond / math.ulp(half_width) / allowed
                if ratio > worst[0]:
                    worst = (ratio, (degrees, z, looks))
    print(f"largest distance: {worst[0]:.3f} of 4 P + 32 ulps of the half-width, at {worst[1]}")


if __name__ == "__main__":
    main()
