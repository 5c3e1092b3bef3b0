"""The one Wilson interval (rules.engines.core.intervals): known values and its invariants."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.engines.core.intervals import Z_95, wilson_interval


def test_known_values_at_95_percent():
    assert [round(x, 4) for x in wilson_interval(50, 100)] == [0.4038, 0.5962]
    assert [round(x, 4) for x in wilson_interval(9, 10)] == [0.5958, 0.9821]
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert round(Z_95, 2) == 1.96


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_interval_holds_the_observed_rate_and_narrows_with_a_smaller_z(case):
    successes, trials = case
    low, high = wilson_interval(successes, trials)
    rate = successes / trials
    assert 0.0 <= low <= rate + 1e-12 and rate - 1e-12 <= high <= 1.0  # rounding at 0 and 1
    narrow_low, narrow_high = wilson_interval(successes, trials, z=1.0)
    assert low <= narrow_low + 1e-12 and narrow_high <= high + 1e-12


def test_a_weighted_rate_with_equal_weights_and_games_is_the_pooled_rate_and_interval():
    from rules.engines.core.intervals import weighted_rate_interval

    rate, low, high = weighted_rate_interval([(6, 10), (4, 10)], [1.0, 1.0])
    assert rate == 0.5
    assert (low, high) == wilson_interval(10, 20)
    assert weighted_rate_interval([(3, 0), (1, 5)], [1.0, 0.0]) is None  # nothing counts


@given(
    st.lists(
        st.tuples(
            st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
            st.floats(0.01, 100),
        ),
        min_size=1,
        max_size=15,
    )
)
def test_a_weighted_rate_lies_between_its_parts_and_inside_its_interval(parts):
    from rules.engines.core.intervals import weighted_rate_interval

    counts = [part for part, _ in parts]
    rates = [successes / trials for successes, trials in counts]
    result = weighted_rate_interval(counts, [weight for _, weight in parts])
    assert result is not None
    rate, low, high = result
    assert min(rates) - 1e-9 <= rate <= max(rates) + 1e-9
    assert 0.0 <= low <= rate <= high <= 1.0
