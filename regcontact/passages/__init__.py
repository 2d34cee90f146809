"""Compliant runs through what rigid contact cannot pass, compared with the rigid prediction there: the end of a
rigid slip, a planar jam (the G-spot, against the jump into stick) or a spatial crossing of ``p = 0`` (against the
impact without collision). This wing sits above both :mod:`regcontact.rigid` and :mod:`regcontact.compliant`."""

from regcontact.passages._crossing import (
    IMPACT_TIMES as IMPACT_TIMES,
    CrossingPassage as CrossingPassage,
    PastCrossing as PastCrossing,
)
from regcontact.passages._jam import STOPPED_SLIP as STOPPED_SLIP, BeyondJam as BeyondJam, JamPassage as JamPassage
from regcontact.passages._pass_through import pass_through as pass_through
from regcontact.passages._passage import (
    BEYOND_JAM_OUTCOMES as BEYOND_JAM_OUTCOMES,
    AbstractPassage as AbstractPassage,
    PassageOutcome as PassageOutcome,
)
