"""Bets: payouts, paytables and their files, progressive and streak bets, the game chosen, work
budgets, and settling rounds."""
