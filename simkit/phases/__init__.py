"""The decision phases of a game, played around the arrangement: who passes or exchanges which
cards before the hands are set, and the payments made for the banker's seat, for settling instead
of comparing, and for surrendering.

Each phase is a section of the variant file (rules as data); a phase that is off leaves the
game as the plain deal-arrange-score pipeline plays it.  Phases decide with the strategy's own
value of a hand and record what they pay as named score components, so that the scores of a
game still sum to zero and the report can price each phase on the same deals with and without
it.
"""
