"""Every table the migrations make, in one ``MetaData``: the tournaments' and the web's
(``models.py``), the replay's analyses and uploaded records (``analysis_models.py``), the
leagues' (``league_models.py``) and the batch games being played (``journal_models.py``).
Alembic's environment and the test that the migrations make the models' schema read it; the
modules that use a table import its model directly."""

from __future__ import annotations

from typing import Final

from sqlalchemy import MetaData

from tricktable.db import analysis_models, journal_models, league_models
from tricktable.db.models import Base

#: the modules whose models are in :data:`METADATA` besides ``models.py``'s
MODULES: Final = (analysis_models, journal_models, league_models)
#: every table of the database
METADATA: Final[MetaData] = Base.metadata
