"""Games on a Dask cluster from Python: inside ``with deckkit.games_on("tcp://HOST:PORT"):``
every function of the API plays its games on that cluster, as a command's ``--scheduler``
does; seeds and chunks are those of a local run, so the results are identical."""

from __future__ import annotations

from deckkit.analysis.dask_backend import games_on

__all__ = ["games_on"]
