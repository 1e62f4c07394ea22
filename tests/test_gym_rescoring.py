"""Re-scoring through Gym's resources server, its parts without Gym: the /verify request and verdict, the head
server's listing, and /verify's failures becoming masked verifier_error verdicts (against a stand-in server on
loopback). The real Gym 0.7.0 end to end: test_nemo_gym_reverify.py."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp import web

from gym_pipeline.engines.gym_rescoring import (
    GymRescoringSettings,
    _resources_server_instance,
    _verify_everything,
    gym_verdict,
    verify_request,
)
from gym_pipeline.engines.nemo_gym import NemoGymError


def test_the_request_is_the_input_row_and_the_stored_response():
    row = {"responses_create_params": {"input": "q"}, "expected_answer": "Paris", "_ng_task_index": 0}
    rollout = {"response": {"output": []}, "reward": 1.0, "reference_ids": [3], "extracted_answer": "Paris"}
    assert verify_request(row, rollout) == row | {"response": {"output": []}, "reference_ids": [3]}


def test_the_verdict_is_gyms_four_fields_and_what_verify_added():
    request = {"responses_create_params": {}, "response": {}, "expected_answer": "Paris"}
    answer = {"responses_create_params": {}, "response": {}, "reward": 1.0, "mask_sample": False,
              "failure_kind": None, "failure_reason": None, "expected_answer": "Paris", "extracted_answer": "Paris"}
    assert gym_verdict(request, answer) == {"reward": 1.0, "mask_sample": False, "failure_kind": None,
                                            "failure_reason": None, "extracted_answer": "Paris"}
    for bad in ({"reward": "1"}, {"reward": True}, ["reward"], {}):
        with pytest.raises(ValueError, match="numeric reward"):
            gym_verdict(request, bad)


def test_the_resources_server_is_found_by_name_among_gyms_servers():
    listed = [{"server_type": "responses_api_agents", "process_name": "a", "url": "http://a"},
              {"server_type": "resources_servers", "process_name": "string_match", "url": "http://r"}]
    assert _resources_server_instance(listed, "string_match")["url"] == "http://r"
    assert _resources_server_instance(listed[1:], "other")["url"] == "http://r"  # the only one there is
    two = [*listed, {"server_type": "resources_servers", "process_name": "mcqa", "url": "http://m"}]
    with pytest.raises(NemoGymError, match="cannot tell which one is 'other'"):
        _resources_server_instance(two, "other")


async def _stand_in_gym(calls: list[dict]) -> web.AppRunner:
    """A head server and a resources server in one app: /verify answers by the request's `expected_answer`."""
    async def server_instances(request: web.Request) -> web.Response:
        url = f"http://127.0.0.1:{request.url.port}"
        return web.json_response([{"server_type": "resources_servers", "process_name": "echo", "url": url,
                                   "dir_path": "/nowhere"}])

    async def verify(request: web.Request) -> web.Response:
        body = await request.json()
        calls.append(body)
        expected = body["expected_answer"]
        if expected == "crash":
            return web.Response(status=500, text="Internal Server Error: secret=hunter2")
        if expected == "garbage":
            return web.Response(text="not json")
        return web.json_response(body | {"reward": float(expected == "yes"), "mask_sample": False,
                                         "failure_kind": None, "failure_reason": None, "extracted_answer": expected})

    app = web.Application()
    app.router.add_get("/server_instances", server_instances)
    app.router.add_post("/verify", verify)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    return runner


def test_verify_failures_become_masked_verifier_errors_and_each_request_is_repeated():
    calls: list[dict] = []

    async def scenario():
        runner = await _stand_in_gym(calls)
        port = runner.addresses[0][1]
        try:
            requests = [{"expected_answer": answer, "response": {}} for answer in ("yes", "no", "crash", "garbage")]
            return await _verify_everything(f"http://127.0.0.1:{port}", "echo", requests, 2,
                                            GymRescoringSettings(concurrency=2, request_timeout_s=10))
        finally:
            await runner.cleanup()

    instance, verdicts = asyncio.run(scenario())
    assert instance["dir_path"] == "/nowhere" and len(calls) == 8  # every request twice
    assert [[verdict["reward"] for verdict in repeated] for repeated in verdicts] == [[1.0, 1.0], [0.0, 0.0],
                                                                                       [0.0, 0.0], [0.0, 0.0]]
    assert verdicts[0][0] == {"reward": 1.0, "mask_sample": False, "failure_kind": None, "failure_reason": None,
                              "extracted_answer": "yes"}
    for repeated in verdicts[2:]:
        assert all(v["failure_kind"] == "verifier_error" and v["mask_sample"] is True for v in repeated)
    assert "HTTP 500" in verdicts[2][0]["failure_reason"] and "hunter2" not in verdicts[2][0]["failure_reason"]
    assert "JSONDecodeError" in verdicts[3][0]["failure_reason"]
