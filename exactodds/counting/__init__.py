"""The card engine: exact counts of bets that read the cards, by stage (classes, poker,
evaluation, plan, engine, worked examples); :mod:`exactodds.cards` re-exports its public names."""
