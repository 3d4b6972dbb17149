"""Games with choices: baccarat where a side decides (chemin de fer, Baccarat Gold).

This stage comes after ``figures`` and before ``report``: it reads the deal and solves games.
"""
