"""Figures: a bet's exact return, edge, hit frequency and volatility, formulas, solving payouts,
the main bets' odds, variant comparisons and worked examples."""
