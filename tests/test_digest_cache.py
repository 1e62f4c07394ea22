"""Digests kept by file identity (device, inode, size, mtime_ns): reused while it holds, recomputed when not."""

import hashlib
import os

from gym_pipeline.core.digest_cache import DigestCache
from gym_pipeline.core.fingerprint import file_digest, folder_digest


def checkpoint(tmp_path):
    folder = tmp_path / "step_0100"
    (folder / "shards").mkdir(parents=True)
    (folder / "config.json").write_text('{"step": 100}')
    (folder / "shards" / "model-00001.safetensors").write_bytes(os.urandom(4096))
    (folder / "shards" / "model-00002.safetensors").write_bytes(os.urandom(8192))
    return folder


def test_an_unchanged_file_is_not_hashed_again_even_by_another_process(tmp_path):
    folder = checkpoint(tmp_path)
    store = tmp_path / "digests.sqlite"
    first = DigestCache(store)
    assert first.folder_digest(folder) == folder_digest(folder)
    assert (first.stats.hashed, first.stats.reused) == (3, 0)
    second = DigestCache(store)  # a new process reads the same store
    assert second.folder_digest(folder) == folder_digest(folder)
    assert (second.stats.hashed, second.stats.reused) == (0, 3)


def test_a_change_of_content_size_or_mtime_hashes_that_file_again(tmp_path):
    folder = checkpoint(tmp_path)
    cache = DigestCache(tmp_path / "digests.sqlite")
    cache.folder_digest(folder)
    shard = folder / "shards" / "model-00001.safetensors"

    shard.write_bytes(os.urandom(4096))  # same size, new content (and mtime)
    assert cache.folder_digest(folder) == folder_digest(folder)
    assert (cache.stats.hashed, cache.stats.reused) == (1, 2)

    shard.write_bytes(os.urandom(100))  # another size
    assert cache.folder_digest(folder) == folder_digest(folder)
    assert cache.stats.hashed == 1

    stat = shard.stat()
    os.utime(shard, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))  # touched only
    assert cache.file_digest(shard) == file_digest(shard)
    assert cache.stats.hashed == 1


def test_rehash_hashes_everything(tmp_path):
    folder = checkpoint(tmp_path)
    DigestCache(tmp_path / "digests.sqlite").folder_digest(folder)
    cache = DigestCache(tmp_path / "digests.sqlite", rehash=True)
    cache.folder_digest(folder)
    assert (cache.stats.hashed, cache.stats.reused) == (3, 0)


def test_the_blind_spot_a_rewrite_with_the_same_size_and_mtime_keeps_the_old_digest(tmp_path):
    """As in git and DVC: documented in the README; --rehash is the way out."""
    data = tmp_path / "data.jsonl"
    data.write_text('{"a": 1}\n')
    cache = DigestCache(tmp_path / "digests.sqlite")
    old = cache.file_digest(data)
    stat = data.stat()
    data.write_text('{"a": 2}\n')
    os.utime(data, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert cache.file_digest(data) == old != file_digest(data)
    assert DigestCache(tmp_path / "digests.sqlite", rehash=True).file_digest(data) == file_digest(data)


def test_published_sha256_files_are_read_instead_of_hashing_while_not_older_than_their_file(tmp_path):
    folder = checkpoint(tmp_path)
    shard = folder / "shards" / "model-00002.safetensors"
    sidecar = folder / "shards" / "model-00002.safetensors.sha256"
    sidecar.write_text(f"{hashlib.sha256(shard.read_bytes()).hexdigest()}  model-00002.safetensors\n")
    cache = DigestCache(tmp_path / "digests.sqlite")
    assert cache.folder_digest(folder) == folder_digest(folder)
    assert (cache.stats.published, cache.stats.hashed) == (1, 3)  # the shard read; the other two and the sidecar hashed

    stat = sidecar.stat()
    shard.write_bytes(os.urandom(8192))
    os.utime(shard, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # the file changed after its sidecar
    assert cache.folder_digest(folder) == folder_digest(folder)
    assert cache.stats.published == 0


def test_a_hugging_face_cache_snapshot_names_its_blobs_by_sha256(tmp_path):
    repo = tmp_path / "models--org--model"
    content = os.urandom(2048)
    blob = repo / "blobs" / hashlib.sha256(content).hexdigest()
    blob.parent.mkdir(parents=True)
    blob.write_bytes(content)
    snapshot = repo / "snapshots" / "0123abc"
    snapshot.mkdir(parents=True)
    (snapshot / "model.safetensors").symlink_to(os.path.relpath(blob, snapshot))
    cache = DigestCache(tmp_path / "digests.sqlite")
    assert cache.folder_digest(snapshot) == folder_digest(snapshot)
    assert cache.stats.published == 1 and cache.stats.hashed == 0


def test_large_first_hashes_run_in_parallel_and_report_progress(tmp_path, monkeypatch):
    import gym_pipeline.core.digest_cache as digest_cache

    monkeypatch.setattr(digest_cache, "PARALLEL_BYTES", 1)
    monkeypatch.setattr(digest_cache, "PROGRESS_EVERY_S", 0)
    folder = checkpoint(tmp_path)
    messages = []
    cache = DigestCache(tmp_path / "digests.sqlite", workers=2, progress=messages.append)
    assert cache.folder_digest(folder) == folder_digest(folder)
    assert any("of 3 files" in message for message in messages) and messages[-1].startswith(f"hashed {folder}: 3 files")
