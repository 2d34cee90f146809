"""Studies from config files: the TOML schema and its validation, the study kinds, and their results.

The only layer that knows config strings; the physics packages never import it."""

from regcontact.studies._finished_study import (
    FinishedStudy as FinishedStudy,
    Provenance as Provenance,
    load_results as load_results,
)
from regcontact.studies._study_kind import (
    AbstractStudyKind as AbstractStudyKind,
    Estimate as Estimate,
)
from regcontact.studies.config import (
    ConfigError as ConfigError,
)
from regcontact.studies.loading import (
    STUDY_KINDS as STUDY_KINDS,
    LoadedStudy as LoadedStudy,
    load_config as load_config,
    load_study as load_study,
)
from regcontact.studies.running import (
    StudyRun as StudyRun,
    run_study as run_study,
)
from regcontact.studies.study_result import (
    StudyResult as StudyResult,
)
