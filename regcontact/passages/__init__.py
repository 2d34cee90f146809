"""Compliant runs through what rigid contact cannot pass, compared with the rigid prediction there: a planar jam
(the G-spot, against the jump into stick) and a spatial crossing of ``p = 0`` (against the impact without
collision). This wing sits above both :mod:`regcontact.rigid` and :mod:`regcontact.compliant`."""

from regcontact.passages._crossing import (
    IMPACT_TIMES as IMPACT_TIMES,
    CrossingPassage as CrossingPassage,
    PastCrossing as PastCrossing,
    classify_crossing as classify_crossing,
    pass_crossing as pass_crossing,
)
from regcontact.passages._jam import (
    BEYOND_JAM_OUTCOMES as BEYOND_JAM_OUTCOMES,
    STOPPED_SLIP as STOPPED_SLIP,
    BeyondJam as BeyondJam,
    JamPassage as JamPassage,
    classify_passage as classify_passage,
    pass_jam as pass_jam,
)
