"""The digest cache as a Dagster resource: where source digests are kept, and whether to trust them."""

from __future__ import annotations

from pathlib import Path

import dagster as dg

from gym_pipeline.core.digest_cache import DigestCache


class DigestCacheResource(dg.ConfigurableResource):
    """Source files' digests kept by (device, inode, size, mtime) in the workspace (`digest_cache` in sweep.yaml).

    `rehash` (sweep.yaml's `rehash_sources`, `gym-pipeline status --rehash`, or the launchpad) hashes every file.
    """

    store: str
    rehash: bool = False

    def cache(self, log: dg.DagsterLogManager | None = None) -> DigestCache:
        """A cache that reports the progress of large first hashes to `log`."""
        return DigestCache(Path(self.store), rehash=self.rehash, progress=log.info if log is not None else None)
