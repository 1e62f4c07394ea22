"""Rules: read `Evidence` in the debug order of the NeMo Gym debugging guide and name findings.

Each rule is a plain function `rule(evidence) -> list[Finding]`, registered in `RULES` with the
guide's debug step it belongs to (`vocabulary.DEBUG_STEPS`):

  1. Slurm/Ray job state and logs      5. materialized inputs and source data
  2. model serving readiness           6. rollout output and profile counts
  3. Gym server readiness              7. the first real verifier exception
  4. tool routing, sandbox readiness   8. failing row schema vs the request model

Findings are then linked into a causal report (`link_causes`): each is a `cause`, a `consequence`
of a cause (a finding its rule marks as an effect: partial output, a torn last line, a missing or
stale profile, a stage that merely exited non-zero) or a `note` (a run not profiled yet). Causes
keep the order of `RULES` (the guide's debug order), each followed by what it caused; the first
cause is the first thing to fix and names the report's category. Within a step, rules that read the run's files come first and the known
problems of `signatures.KNOWN_PROBLEMS` last: a known problem's finding whose lines an earlier
finding already cites adds nothing and is dropped. A log error no finding explains still becomes
a finding (`unexplained_log_errors`), so a run is never called healthy while its logs show a
real error.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from gym_pipeline.diagnose.evidence import FAILED_RUN_LOG, FAILED_RUN_SOURCE, Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import CAUSE, CONSEQUENCE, NOTE, Finding, Rule
from gym_pipeline.diagnose.origin import REFUSED_COMMAND_LINE, host_limit
from gym_pipeline.diagnose.rules.archived_picks import rule_dated_archive_picked_by_a_sorted_glob
from gym_pipeline.diagnose.rules.background_collections import rule_collection_backgrounded_before_its_profile
from gym_pipeline.diagnose.rules.bad_data import rule_bad_data_line
from gym_pipeline.diagnose.rules.batch_environment import (
    rule_slurm_variable_the_job_never_gets,
    rule_variable_not_exported_to_the_job,
    rule_variable_set_without_export_for_a_child_process,
)
from gym_pipeline.diagnose.rules.batch_folders import (
    rule_files_looked_for_beside_the_spool_copy,
    rule_job_folder_copied_from_another_script,
    rule_job_folder_left_unexpanded,
    rule_job_output_in_a_link_to_a_missing_folder,
    rule_job_output_in_a_missing_folder,
    rule_job_run_as_a_user_who_cannot_write_its_output,
    rule_job_submitted_from_another_folder,
)
from gym_pipeline.diagnose.rules.batch_script_format import rule_batch_script_with_windows_line_endings
from gym_pipeline.diagnose.rules.batch_steps import rule_step_ended_with_its_batch_script
from gym_pipeline.diagnose.rules.batch_time_limit import (
    rule_model_server_job_ended_at_its_time_limit,
    rule_signal_before_the_limit_without_a_trap,
    rule_sleep_takes_the_time_limit,
    rule_step_ended_at_its_own_srun_time_limit,
    rule_time_given_as_minutes_and_seconds,
    rule_time_limit_other_than_the_directive,
    rule_time_limit_shortened_while_it_ran,
)
from gym_pipeline.diagnose.rules.best_checkpoint_picks import (
    rule_best_checkpoint_by_a_text_sort,
    rule_best_checkpoint_by_the_highest_loss,
)
from gym_pipeline.diagnose.rules.boolean_options import (
    rule_false_given_to_an_option_read_with_bool,
    rule_option_appended_to_its_default,
    rule_switch_that_is_always_on,
)
from gym_pipeline.diagnose.rules.canned_replies import (
    rule_answers_from_a_second_server,
    rule_one_reply_to_different_prompts,
)
from gym_pipeline.diagnose.rules.cd_path import rule_cd_resolved_through_cdpath
from gym_pipeline.diagnose.rules.checkpoint_choice import (
    rule_checkpoint_of_another_experiment_served,
    rule_checkpoint_of_another_run_served,
    rule_checkpoint_taken_in_directory_order,
    rule_checkpoint_variable_exported_to_the_serving_script,
    rule_gateway_forwards_to_an_older_checkpoint,
    rule_newest_checkpoint_by_modification_time,
    rule_newest_checkpoint_by_text_sort,
    rule_oldest_checkpoint_served_as_newest,
    rule_rollouts_kept_by_a_build_tool,
    rule_servers_given_one_ready_file,
    rule_share_sent_to_a_server_of_another_checkpoint,
)
from gym_pipeline.diagnose.rules.checkpoint_folder_level import rule_checkpoint_folder_one_level_up
from gym_pipeline.diagnose.rules.checkpoint_from_log import (
    rule_checkpoint_taken_from_the_first_log_line,
    rule_step_taken_from_the_trainer_states_first_entry,
)
from gym_pipeline.diagnose.rules.checkpoint_links import rule_checkpoint_link_resolved_from_its_own_folder
from gym_pipeline.diagnose.rules.client_timeout import rule_client_timeout_too_short
from gym_pipeline.diagnose.rules.command_lines import (
    rule_option_given_twice,
    rule_wrapper_adds_an_option_its_caller_gave,
)
from gym_pipeline.diagnose.rules.completion_waits import rule_completion_line_of_an_earlier_run
from gym_pipeline.diagnose.rules.compressed_replies import rule_compressed_replies
from gym_pipeline.diagnose.rules.connection_pool import rule_connection_pool_below_the_concurrency
from gym_pipeline.diagnose.rules.container_env_twice import rule_container_variable_given_twice
from gym_pipeline.diagnose.rules.container_loopback import rule_client_container_on_its_own_loopback
from gym_pipeline.diagnose.rules.container_options import (
    rule_container_borrowing_from_one_not_running,
    rule_container_option_this_node_cannot_honour,
    rule_read_only_container_without_a_writable_tmp,
)
from gym_pipeline.diagnose.rules.container_symlinks import rule_container_serves_a_link_to_a_host_path
from gym_pipeline.diagnose.rules.data import (
    rule_data_file_its_writer_never_wrote,
    rule_empty_inputs,
    rule_limited_inputs,
    rule_malformed_jsonl,
    rule_missing_rollouts,
    rule_partial_profile_log,
    rule_profile_counts,
    rule_profile_of_swapped_files,
    rule_resume_across_models,
    rule_rollouts_without_inputs,
    rule_rollouts_written_elsewhere,
    rule_served_another_checkpoint,
    rule_several_writers,
    rule_stale_files,
    rule_stale_inputs,
    rule_truncated_answers,
)
from gym_pipeline.diagnose.rules.data_rows import (
    rule_data_rows_give_a_field_twice,
    rule_labels_decoded_with_the_wrong_encoding,
    rule_prompts_ending_with_an_assistant_turn,
    rule_prompts_with_a_chat_template,
)
from gym_pipeline.diagnose.rules.data_subsets import rule_data_subset_left_in_the_script
from gym_pipeline.diagnose.rules.dated_paths import rule_dated_path_computed_again
from gym_pipeline.diagnose.rules.day_first_folders import rule_newest_day_first_folder_taken_by_name
from gym_pipeline.diagnose.rules.deployed_checkpoints import rule_deployed_checkpoint_not_the_one_served
from gym_pipeline.diagnose.rules.deployed_copies import rule_package_imported_from_a_stale_deployed_copy
from gym_pipeline.diagnose.rules.derived_tables import rule_summary_table_made_once
from gym_pipeline.diagnose.rules.directive_variables import rule_directive_names_a_shell_variable
from gym_pipeline.diagnose.rules.directory_links import rule_folder_link_followed_instead_of_replaced
from gym_pipeline.diagnose.rules.docker_names import rule_container_name_held_by_an_earlier_run
from gym_pipeline.diagnose.rules.docker_volumes import rule_folder_mounted_as_a_named_volume
from gym_pipeline.diagnose.rules.downloads import (
    rule_browser_download_saved_beside_the_file_read,
    rule_download_saved_beside_the_file_read,
)
from gym_pipeline.diagnose.rules.duplicate_settings_keys import rule_settings_key_given_twice
from gym_pipeline.diagnose.rules.empty_replies import rule_replies_emptied_on_the_way
from gym_pipeline.diagnose.rules.endpoint_address import (
    rule_endpoint_not_where_server_listens,
    rule_host_name_resolves_elsewhere,
    rule_host_name_resolves_where_nothing_listens,
    rule_url_without_scheme,
)
from gym_pipeline.diagnose.rules.expected_file_newline import rule_expected_file_without_final_newline
from gym_pipeline.diagnose.rules.export_lists import rule_export_value_split_at_its_comma
from gym_pipeline.diagnose.rules.fallback import (
    PROFILE_STAGE,
    STEP_OF_CATEGORY,
    collection_complete,
    stage_of_log,
    unexplained_log_errors,
)
from gym_pipeline.diagnose.rules.falsy_zero import rule_zero_answer_taken_for_none
from gym_pipeline.diagnose.rules.firewall import rule_firewall_blocks_run_port
from gym_pipeline.diagnose.rules.first_job_waits import rule_server_stopped_after_waiting_for_one_job
from gym_pipeline.diagnose.rules.flaky import rule_flaky_verifier
from gym_pipeline.diagnose.rules.git_checkouts import (
    rule_edits_left_in_the_stash,
    rule_fetch_never_merged,
    rule_pull_refused_by_local_changes,
    rule_submodule_left_behind_by_a_pull,
)
from gym_pipeline.diagnose.rules.gym_run_configs import rule_resume_with_other_settings_than_its_inputs
from gym_pipeline.diagnose.rules.gym_settings import (
    rule_model_name_fallen_back_to_a_settings_default,
    rule_model_url_replaced_by_an_endpoint_file,
    rule_port_range_narrower_than_the_servers_gym_starts,
    rule_rows_left_undispatched_by_the_dispatch_budget,
    rule_servers_given_too_short_a_spinup_timeout,
    rule_servers_only_prepared_by_a_kept_dry_run,
    rule_verification_skipped_by_a_kept_setting,
)
from gym_pipeline.diagnose.rules.hand_split_tables import rule_rows_cut_at_quoted_commas
from gym_pipeline.diagnose.rules.hangup_signals import rule_model_server_ended_by_a_scripts_hangup
from gym_pipeline.diagnose.rules.heredocs import rule_settings_written_by_a_quoted_heredoc
from gym_pipeline.diagnose.rules.identical_repeats import rule_repeats_sampled_alike
from gym_pipeline.diagnose.rules.ignored_options import rule_flag_ignored_by_parse_known_args
from gym_pipeline.diagnose.rules.image_builds import rule_image_build_past_its_timeout
from gym_pipeline.diagnose.rules.inline_comments import rule_model_url_carries_an_inline_comment
from gym_pipeline.diagnose.rules.job import (
    rule_container_cannot_reach_host,
    rule_head_probe,
    rule_host_limits,
    rule_launcher_state,
    rule_model_endpoint_failures,
    rule_model_probe,
    rule_model_request_retries,
    rule_native_crash,
    rule_nested_model_errors,
    rule_nested_model_log_errors,
    rule_nothing_to_diagnose,
    rule_ports_in_use,
    rule_proxy_intercepts_loopback,
    rule_python_version,
    rule_run_failures_without_sidecar,
    rule_sandbox_cannot_reach_model,
    rule_servers_not_ready,
    rule_shell_reported_signal,
    rule_tool_env_hangs,
)
from gym_pipeline.diagnose.rules.job_arrays import (
    rule_array_directive_of_a_wrapped_script,
    rule_array_ids_not_the_files_numbers,
    rule_array_range_overridden_on_the_command_line,
    rule_array_tasks_write_under_their_own_job_ids,
)
from gym_pipeline.diagnose.rules.job_dependencies import (
    rule_dependency_on_one_array_task,
    rule_dependency_on_sbatchs_sentence,
)
from gym_pipeline.diagnose.rules.job_interpreter import rule_job_script_interpreter_missing
from gym_pipeline.diagnose.rules.job_name_overrides import rule_job_renamed_on_the_command_line
from gym_pipeline.diagnose.rules.joined_labels import rule_accepted_answers_joined_into_one_label
from gym_pipeline.diagnose.rules.known import known_problems
from gym_pipeline.diagnose.rules.length_guards import rule_long_answers_dropped_by_a_length_guard
from gym_pipeline.diagnose.rules.listing_picks import (
    rule_non_version_picked_from_a_listing,
    rule_older_version_picked_from_a_listing,
)
from gym_pipeline.diagnose.rules.local_connect_refusals import rule_connect_refused_by_the_clients_system
from gym_pipeline.diagnose.rules.local_ray import rule_own_ray_unreachable
from gym_pipeline.diagnose.rules.lock_waits import (
    rule_collection_timed_out_waiting_for_a_lock,
    rule_job_spent_its_time_waiting_for_a_lock,
    rule_shards_wait_for_each_others_lock,
)
from gym_pipeline.diagnose.rules.loop_outputs import rule_loop_writes_every_item_to_one_output
from gym_pipeline.diagnose.rules.make_targets import (
    rule_clean_glob_misses_a_hidden_stamp,
    rule_included_makefile_overrides_an_assignment,
    rule_make_recipe_changes_folder_on_a_line_of_its_own,
    rule_makefile_assignment_overrides_the_environment,
    rule_partial_target_kept_by_make,
    rule_shell_variable_in_a_make_recipe,
    rule_task_target_taken_for_a_file,
)
from gym_pipeline.diagnose.rules.merged_defaults import (
    rule_defaults_merged_over_the_settings,
    rule_settings_file_merged_over_the_command_line,
)
from gym_pipeline.diagnose.rules.missing_commas import rule_list_items_joined_by_a_missing_comma
from gym_pipeline.diagnose.rules.missing_programs import rule_program_missing_where_the_script_ran
from gym_pipeline.diagnose.rules.missing_value_labels import rule_labels_that_are_a_missing_value
from gym_pipeline.diagnose.rules.model_choice import rule_collection_took_the_first_listed_model
from gym_pipeline.diagnose.rules.model_replies import rule_model_replies_unusable
from gym_pipeline.diagnose.rules.mpi_plugins import (
    rule_container_option_without_pyxis,
    rule_mpi_plugin_the_cluster_cannot_load,
)
from gym_pipeline.diagnose.rules.nested_moves import rule_folder_moved_into_the_one_it_meant_to_replace
from gym_pipeline.diagnose.rules.newline_slices import rule_last_line_cut_by_a_newline_slice
from gym_pipeline.diagnose.rules.node_local_copies import rule_stage_copy_not_replaced_by_sbcast
from gym_pipeline.diagnose.rules.octal_steps import rule_step_padded_as_octal
from gym_pipeline.diagnose.rules.older_servers import rule_rollouts_from_a_server_the_run_did_not_start
from gym_pipeline.diagnose.rules.override_files import rule_override_file_still_cuts_the_eval_down
from gym_pipeline.diagnose.rules.own_cancels import rule_submit_script_cancels_its_own_job
from gym_pipeline.diagnose.rules.paced_collections import rule_collections_paced_past_their_time_budget
from gym_pipeline.diagnose.rules.parallel_steps import rule_steps_queued_inside_the_job
from gym_pipeline.diagnose.rules.pbs_directives import rule_pbs_walltime_kept_in_a_batch_script
from gym_pipeline.diagnose.rules.pending_jobs import rule_job_never_started
from gym_pipeline.diagnose.rules.pinned_model_urls import rule_model_url_pinned_to_an_older_server
from gym_pipeline.diagnose.rules.pip_targets import rule_package_kept_by_pip_target
from gym_pipeline.diagnose.rules.piped_collections import rule_collection_piped_into_head
from gym_pipeline.diagnose.rules.placeholder_labels import rule_placeholder_labels
from gym_pipeline.diagnose.rules.port_redirects import rule_model_port_redirected_elsewhere
from gym_pipeline.diagnose.rules.port_taken import (
    rule_gym_server_config_pins_a_taken_port,
    rule_model_port_held_by_another_server,
)
from gym_pipeline.diagnose.rules.prep_losses import rule_questions_lost_or_cut_by_the_prep_script
from gym_pipeline.diagnose.rules.private_tmp import rule_results_left_in_a_services_private_tmp
from gym_pipeline.diagnose.rules.process_limits import rule_process_limits
from gym_pipeline.diagnose.rules.profiled_run import rule_profile_of_an_older_run, rule_summary_of_an_older_run
from gym_pipeline.diagnose.rules.progress import rule_interrupted_collection
from gym_pipeline.diagnose.rules.published_copy import (
    rule_copy_kept_the_existing_file,
    rule_results_published_without_overwriting,
)
from gym_pipeline.diagnose.rules.python_environment import (
    rule_python_debugging_switch_left_on,
    rule_python_startup_variable,
    rule_script_run_by_a_python_without_its_package,
)
from gym_pipeline.diagnose.rules.quality import (
    rule_answers_cut_by_the_extraction,
    rule_answers_in_other_typography_scored_0,
    rule_clock_time_labels_read_as_base_60,
    rule_conflicting_labels,
    rule_crossed_environments,
    rule_every_rollout_masked,
    rule_expected_answers_case_lost,
    rule_expected_answers_in_other_typography,
    rule_expected_answers_not_options,
    rule_expected_answers_without_spaces,
    rule_html_entities_in_expected_answers,
    rule_integer_labels_rounded_through_a_double,
    rule_invisible_characters_in_expected_answers,
    rule_labels_cut_to_their_first_character,
    rule_labels_holding_the_answer_marker,
    rule_labels_in_a_spreadsheets_display_format,
    rule_labels_in_roman_numerals,
    rule_labels_of_other_tasks,
    rule_labels_one_row_off,
    rule_labels_read_as_dates,
    rule_labels_truncated_to_integers,
    rule_labels_with_doubled_backslashes,
    rule_labels_with_float_noise,
    rule_labels_with_non_ascii_replaced,
    rule_last_line_answers_scored_zero,
    rule_matching_answers_scored_zero,
    rule_numbers_written_otherwise_in_expected_answers,
    rule_one_answer_to_every_task,
    rule_one_prompt_for_most_tasks,
    rule_other_answers_credited,
    rule_profile_of_other_rewards,
    rule_profile_of_other_tasks,
    rule_prompts_cut_at_one_length,
    rule_questions_written_once_per_sample,
    rule_repeated_tasks,
    rule_rewards_out_of_range,
    rule_rollouts_of_other_inputs,
    rule_rows_of_another_format,
    rule_shared_task_index,
    rule_unextracted_answers,
    rule_verifier_refuses_row_values,
    rule_wrapped_expected_answers,
    rule_wrong_answers_scored_full,
    rule_yes_no_labels_read_as_booleans,
)
from gym_pipeline.diagnose.rules.read_loops import rule_read_loops_that_lose_what_they_read
from gym_pipeline.diagnose.rules.readiness_waits import rule_readiness_wait_counts_an_error_as_ready
from gym_pipeline.diagnose.rules.refusals import rule_model_refusals
from gym_pipeline.diagnose.rules.refused_assignments import rule_assignment_refused_by_bash
from gym_pipeline.diagnose.rules.rejected_solutions import rule_test_rejects_the_tasks_own_solution
from gym_pipeline.diagnose.rules.replaced_links import rule_linked_data_replaced_by_a_copy
from gym_pipeline.diagnose.rules.replicas import rule_replicas_of_other_checkpoints
from gym_pipeline.diagnose.rules.requeued_jobs import rule_inputs_of_another_file_than_the_script_names
from gym_pipeline.diagnose.rules.resume_scripts import (
    rule_done_check_counts_tasks,
    rule_done_marker_left_by_an_earlier_run,
    rule_resume_over_rows_a_fetch_brought,
    rule_retries_that_start_over,
)
from gym_pipeline.diagnose.rules.retry_settings import rule_rollout_retries_turned_off
from gym_pipeline.diagnose.rules.rotated_checkpoints import rule_checkpoint_deleted_after_it_was_chosen
from gym_pipeline.diagnose.rules.rounded_labels import rule_labels_rounded_half_to_even
from gym_pipeline.diagnose.rules.routing import failure_route
from gym_pipeline.diagnose.rules.run_directory import rule_run_directory_in_use
from gym_pipeline.diagnose.rules.sbatch_arguments import rule_sbatch_option_after_the_script
from gym_pipeline.diagnose.rules.script_defaults import (
    rule_model_url_from_the_environment,
    rule_url_built_from_the_host_name,
)
from gym_pipeline.diagnose.rules.script_values import (
    rule_brace_pattern_kept_in_a_variable,
    rule_expr_star_expanded_by_the_shell,
    rule_jq_key_not_in_the_settings,
    rule_read_split_a_settings_line_of_another_form,
)
from gym_pipeline.diagnose.rules.sed_delimiters import (
    rule_sed_replacement_ampersand_pastes_the_placeholder,
    rule_sed_replacement_holds_its_delimiter,
)
from gym_pipeline.diagnose.rules.self_redirect import rule_file_emptied_by_a_redirect_onto_its_input
from gym_pipeline.diagnose.rules.server_restarts import rule_server_restarted_on_other_weights
from gym_pipeline.diagnose.rules.server_venv_reuse import rule_server_venv_older_than_its_requirements
from gym_pipeline.diagnose.rules.servers_per_pass import rule_model_server_started_for_every_pass
from gym_pipeline.diagnose.rules.session_names import rule_server_session_name_taken
from gym_pipeline.diagnose.rules.settings_files import rule_keys_given_twice_in_settings, rule_octal_numbers_in_settings
from gym_pipeline.diagnose.rules.settings_keys import rule_setting_read_under_another_spelling
from gym_pipeline.diagnose.rules.settings_reading import rule_settings_read_with_text_tools
from gym_pipeline.diagnose.rules.settings_run_not_sourced import rule_settings_file_run_instead_of_sourced
from gym_pipeline.diagnose.rules.settings_tables import rule_settings_table_read_at_the_wrong_level
from gym_pipeline.diagnose.rules.shadowed_modules import rule_standard_module_shadowed
from gym_pipeline.diagnose.rules.shared_memory import rule_shared_memory_full
from gym_pipeline.diagnose.rules.shell_dialect import rule_bash_script_run_by_sh, rule_bsd_sed_in_place_on_gnu_sed
from gym_pipeline.diagnose.rules.shell_pitfalls import rule_shell_pitfalls
from gym_pipeline.diagnose.rules.shell_tests import rule_always_true_tests
from gym_pipeline.diagnose.rules.shuffled_options import rule_options_shuffled_without_their_answers
from gym_pipeline.diagnose.rules.skipped_tasks import rule_skipped_tasks_by_reason
from gym_pipeline.diagnose.rules.source_columns import rule_labels_from_another_column
from gym_pipeline.diagnose.rules.sourced_files import rule_settings_sourced_from_path
from gym_pipeline.diagnose.rules.staged_copies import rule_inputs_from_a_copy_staged_before_a_fix
from gym_pipeline.diagnose.rules.stale_bytecode import rule_module_run_from_stale_bytecode
from gym_pipeline.diagnose.rules.stale_tasks import (
    rule_labels_rewritten_by_the_prep,
    rule_tasks_older_than_their_source,
)
from gym_pipeline.diagnose.rules.stored_replies import rule_replies_from_an_earlier_run
from gym_pipeline.diagnose.rules.strict_mode import (
    rule_arithmetic_zero_stopped_a_strict_script,
    rule_errexit_ignored_in_a_tested_function,
    rule_read_at_the_end_of_a_file_stopped_a_strict_script,
    rule_unset_variable_stopped_a_strict_script,
)
from gym_pipeline.diagnose.rules.stripped_characters import rule_letters_stripped_as_a_set
from gym_pipeline.diagnose.rules.stripped_labels import rule_labels_cut_by_strip_with_a_word
from gym_pipeline.diagnose.rules.submission_refusals import (
    rule_name_the_cluster_does_not_define,
    rule_partition_closed_to_the_submitter,
    rule_request_beyond_every_node,
)
from gym_pipeline.diagnose.rules.substituted_servers import rule_server_started_in_a_command_substitution
from gym_pipeline.diagnose.rules.suspended_jobs import rule_job_suspended_while_it_ran
from gym_pipeline.diagnose.rules.swapped_columns import rule_question_and_answer_swapped
from gym_pipeline.diagnose.rules.task_env_values import rule_task_env_value_with_a_shell_variable
from gym_pipeline.diagnose.rules.task_settings import (
    rule_task_image_entrypoint_runs_nothing_it_is_given,
    rule_task_image_runs_as_a_user_that_cannot_write,
    rule_task_setting_ignored,
)
from gym_pipeline.diagnose.rules.taskfolders import with_task_folder_rules
from gym_pipeline.diagnose.rules.taskset_refresh import rule_taskset_refreshed_without_overwriting
from gym_pipeline.diagnose.rules.test_cleanup import rule_test_deletes_the_answer_it_checks
from gym_pipeline.diagnose.rules.test_literals import rule_test_expects_unreachable_text
from gym_pipeline.diagnose.rules.test_only_submissions import rule_submission_only_tested
from gym_pipeline.diagnose.rules.test_solution_reads import rule_test_reads_the_solution_folder
from gym_pipeline.diagnose.rules.test_status import rule_test_passes_whatever_the_agent_did
from gym_pipeline.diagnose.rules.time_budgets import rule_collection_cut_by_its_time_budget
from gym_pipeline.diagnose.rules.toml_tables import rule_setting_under_another_toml_table
from gym_pipeline.diagnose.rules.tool_path import rule_alias_called_in_a_script, rule_pipeline_command_not_on_path
from gym_pipeline.diagnose.rules.traffic_shaping import rule_traffic_shaping_throttles_the_run
from gym_pipeline.diagnose.rules.translated_questions import rule_labels_kept_from_the_source_language
from gym_pipeline.diagnose.rules.unchecked_bytecode import rule_verifier_run_from_unchecked_bytecode
from gym_pipeline.diagnose.rules.uncollected_checkpoints import rule_checkpoint_left_uncollected
from gym_pipeline.diagnose.rules.unconditional_shifts import rule_shift_outside_the_flag_test
from gym_pipeline.diagnose.rules.unexported_variables import rule_variable_set_without_export
from gym_pipeline.diagnose.rules.unfollowed_links import rule_link_not_followed_on_a_nosymfollow_mount
from gym_pipeline.diagnose.rules.unpack_refusals import rule_data_kept_by_an_unpacking_tool
from gym_pipeline.diagnose.rules.user_proxies import (
    proxy_in_the_path,
    rule_proxy_counts_content_length_in_characters,
    rule_proxy_rewrites_the_exchange,
)
from gym_pipeline.diagnose.rules.verifier import (
    rule_failure_kinds,
    rule_malformed_verify_response,
    rule_nested_verifier_errors,
    rule_nested_verifier_log_errors,
    rule_other_failures,
    rule_request_schema,
    rule_sidecar_file_gone,
    rule_step_failures,
    rule_time_budget_kinds,
    rule_timeouts,
    rule_verifier_failures,
    rule_verifier_timeouts,
)
from gym_pipeline.diagnose.rules.verifier_settings import rule_yes_no_setting_read_with_bool
from gym_pipeline.diagnose.rules.warnings_as_errors import rule_warning_raised_as_an_error
from gym_pipeline.diagnose.rules.watchdog import rule_watchdog_checks_a_route_the_server_lacks
from gym_pipeline.diagnose.rules.word_splitting import (
    rule_field_separator_set_for_the_whole_script,
    rule_glob_matched_more_than_one,
    rule_globbing_turned_off,
    rule_path_with_a_space_split_in_two,
)
from gym_pipeline.diagnose.rules.working_directory import rule_command_run_from_a_read_only_folder
from gym_pipeline.diagnose.verifier_source import (
    COMPARISON,
    EXTRACTION,
    answer_rewrites,
    broad_handlers,
    encoded_texts,
    flags_given_as_count,
    handlers_giving_full_credit,
    identity_comparisons,
    mutable_defaults,
    one_pass_iterators_kept,
    skips_of_another_length,
    state_shared_across_awaits,
    swapped_clamps,
    uncalled_methods,
    undefined_names,
    verify_lines,
)
from gym_pipeline.diagnose.vocabulary import (
    CONFIG,
    DEBUG_STEPS,
    INFRA,
    MODEL_SERVING,
    THROUGHPUT_RESOURCES,
    VERIFIER_RUNTIME,
)

__all__ = ["RULES", "failure_route", "link_causes", "run_rules"]


# ---------------------------------------------------------------------------------------------
# The rules in the guide's debug order.

logger = logging.getLogger(__name__)

RULES: tuple[Rule, ...] = (
    Rule(1, "nothing_to_diagnose", rule_nothing_to_diagnose),
    Rule(1, "launcher_state", rule_launcher_state),
    Rule(1, "container_cannot_reach_host", rule_container_cannot_reach_host),
    Rule(1, "native_crash", rule_native_crash),
    Rule(1, "shell_reported_signal", rule_shell_reported_signal),
    Rule(1, "proxy_intercepts_loopback", rule_proxy_intercepts_loopback),
    Rule(1, "python_version", rule_python_version),
    Rule(1, "python_startup_variable", rule_python_startup_variable),
    Rule(1, "python_debugging_switch_left_on", rule_python_debugging_switch_left_on),
    Rule(1, "script_run_by_a_python_without_its_package", rule_script_run_by_a_python_without_its_package),
    Rule(1, "standard_module_shadowed", rule_standard_module_shadowed),
    Rule(1, "submit_script_cancels_its_own_job", rule_submit_script_cancels_its_own_job),
    Rule(1, "submission_only_tested", rule_submission_only_tested),
    Rule(1, "job_never_started", rule_job_never_started),
    Rule(1, "job_suspended_while_it_ran", rule_job_suspended_while_it_ran),
    Rule(1, "job_script_interpreter_missing", rule_job_script_interpreter_missing),
    Rule(1, "ports_in_use", rule_ports_in_use),
    Rule(1, "host_limits", rule_host_limits),
    Rule(1, "process_limits", rule_process_limits),
    Rule(1, "firewall_blocks_run_port", rule_firewall_blocks_run_port),
    Rule(1, "connect_refused_by_the_clients_system", rule_connect_refused_by_the_clients_system),
    Rule(1, "model_server_ended_by_a_scripts_hangup", rule_model_server_ended_by_a_scripts_hangup),
    Rule(1, "link_not_followed_on_a_nosymfollow_mount", rule_link_not_followed_on_a_nosymfollow_mount),
    Rule(1, "model_port_redirected_elsewhere", rule_model_port_redirected_elsewhere),
    Rule(1, "skipped_tasks_by_reason", rule_skipped_tasks_by_reason),
    Rule(1, "own_ray_unreachable", rule_own_ray_unreachable),
    Rule(1, "octal_numbers_in_settings", rule_octal_numbers_in_settings),
    Rule(1, "keys_given_twice_in_settings", rule_keys_given_twice_in_settings),
    Rule(1, "setting_under_another_toml_table", rule_setting_under_another_toml_table),
    Rule(1, "sed_replacement_holds_its_delimiter", rule_sed_replacement_holds_its_delimiter),
    Rule(1, "unset_variable_stopped_a_strict_script", rule_unset_variable_stopped_a_strict_script),
    Rule(1, "read_at_the_end_of_a_file_stopped_a_strict_script", rule_read_at_the_end_of_a_file_stopped_a_strict_script),
    Rule(1, "arithmetic_zero_stopped_a_strict_script", rule_arithmetic_zero_stopped_a_strict_script),
    Rule(1, "errexit_ignored_in_a_tested_function", rule_errexit_ignored_in_a_tested_function),
    Rule(1, "assignment_refused_by_bash", rule_assignment_refused_by_bash),
    Rule(1, "settings_file_run_instead_of_sourced", rule_settings_file_run_instead_of_sourced),
    Rule(1, "bash_script_run_by_sh", rule_bash_script_run_by_sh),
    Rule(1, "bsd_sed_in_place_on_gnu_sed", rule_bsd_sed_in_place_on_gnu_sed),
    Rule(1, "cd_resolved_through_cdpath", rule_cd_resolved_through_cdpath),
    Rule(1, "read_split_a_settings_line_of_another_form", rule_read_split_a_settings_line_of_another_form),
    Rule(1, "expr_star_expanded_by_the_shell", rule_expr_star_expanded_by_the_shell),
    Rule(1, "brace_pattern_kept_in_a_variable", rule_brace_pattern_kept_in_a_variable),
    Rule(1, "jq_key_not_in_the_settings", rule_jq_key_not_in_the_settings),
    Rule(1, "dependency_on_sbatchs_sentence", rule_dependency_on_sbatchs_sentence),
    Rule(1, "dependency_on_one_array_task", rule_dependency_on_one_array_task),
    Rule(1, "settings_written_by_a_quoted_heredoc", rule_settings_written_by_a_quoted_heredoc),
    Rule(1, "dated_path_computed_again", rule_dated_path_computed_again),
    Rule(1, "field_separator_set_for_the_whole_script", rule_field_separator_set_for_the_whole_script),
    Rule(1, "path_with_a_space_split_in_two", rule_path_with_a_space_split_in_two),
    Rule(1, "glob_matched_more_than_one", rule_glob_matched_more_than_one),
    Rule(1, "globbing_turned_off", rule_globbing_turned_off),
    Rule(1, "file_emptied_by_a_redirect_onto_its_input", rule_file_emptied_by_a_redirect_onto_its_input),
    Rule(1, "batch_script_with_windows_line_endings", rule_batch_script_with_windows_line_endings),
    Rule(1, "option_given_twice", rule_option_given_twice),
    Rule(1, "loop_writes_every_item_to_one_output", rule_loop_writes_every_item_to_one_output),
    Rule(1, "shell_pitfalls", rule_shell_pitfalls),
    Rule(1, "always_true_tests", rule_always_true_tests),
    Rule(1, "data_subset_left_in_the_script", rule_data_subset_left_in_the_script),
    Rule(1, "shift_outside_the_flag_test", rule_shift_outside_the_flag_test),
    Rule(1, "settings_read_with_text_tools", rule_settings_read_with_text_tools),
    Rule(1, "url_built_from_the_host_name", rule_url_built_from_the_host_name),
    Rule(1, "retries_that_start_over", rule_retries_that_start_over),
    Rule(1, "done_check_counts_tasks", rule_done_check_counts_tasks),
    Rule(1, "done_marker_left_by_an_earlier_run", rule_done_marker_left_by_an_earlier_run),
    Rule(1, "resume_over_rows_a_fetch_brought", rule_resume_over_rows_a_fetch_brought),
    Rule(1, "edits_left_in_the_stash", rule_edits_left_in_the_stash),
    Rule(1, "submodule_left_behind_by_a_pull", rule_submodule_left_behind_by_a_pull),
    Rule(1, "fetch_never_merged", rule_fetch_never_merged),
    Rule(1, "pull_refused_by_local_changes", rule_pull_refused_by_local_changes),
    Rule(1, "step_ended_with_its_batch_script", rule_step_ended_with_its_batch_script),
    Rule(1, "variable_not_exported_to_the_job", rule_variable_not_exported_to_the_job),
    Rule(1, "slurm_variable_the_job_never_gets", rule_slurm_variable_the_job_never_gets),
    Rule(1, "variable_set_without_export_for_a_child_process", rule_variable_set_without_export_for_a_child_process),
    Rule(1, "pbs_walltime_kept_in_a_batch_script", rule_pbs_walltime_kept_in_a_batch_script),
    Rule(1, "job_output_in_a_missing_folder", rule_job_output_in_a_missing_folder),
    Rule(1, "job_output_in_a_link_to_a_missing_folder", rule_job_output_in_a_link_to_a_missing_folder),
    Rule(1, "job_run_as_a_user_who_cannot_write_its_output", rule_job_run_as_a_user_who_cannot_write_its_output),
    Rule(1, "job_folder_left_unexpanded", rule_job_folder_left_unexpanded),
    Rule(1, "job_folder_copied_from_another_script", rule_job_folder_copied_from_another_script),
    Rule(1, "job_submitted_from_another_folder", rule_job_submitted_from_another_folder),
    Rule(1, "files_looked_for_beside_the_spool_copy", rule_files_looked_for_beside_the_spool_copy),
    Rule(1, "pipeline_command_not_on_path", rule_pipeline_command_not_on_path),
    Rule(1, "alias_called_in_a_script", rule_alias_called_in_a_script),
    Rule(1, "array_ids_not_the_files_numbers", rule_array_ids_not_the_files_numbers),
    Rule(1, "array_tasks_write_under_their_own_job_ids", rule_array_tasks_write_under_their_own_job_ids),
    Rule(1, "array_range_overridden_on_the_command_line", rule_array_range_overridden_on_the_command_line),
    Rule(1, "array_directive_of_a_wrapped_script", rule_array_directive_of_a_wrapped_script),
    Rule(1, "steps_queued_inside_the_job", rule_steps_queued_inside_the_job),
    Rule(1, "results_left_in_a_services_private_tmp", rule_results_left_in_a_services_private_tmp),
    Rule(1, "time_limit_other_than_the_directive", rule_time_limit_other_than_the_directive),
    Rule(1, "time_given_as_minutes_and_seconds", rule_time_given_as_minutes_and_seconds),
    Rule(1, "export_value_split_at_its_comma", rule_export_value_split_at_its_comma),
    Rule(1, "mpi_plugin_the_cluster_cannot_load", rule_mpi_plugin_the_cluster_cannot_load),
    Rule(1, "container_option_without_pyxis", rule_container_option_without_pyxis),
    Rule(1, "request_beyond_every_node", rule_request_beyond_every_node),
    Rule(1, "partition_closed_to_the_submitter", rule_partition_closed_to_the_submitter),
    Rule(1, "name_the_cluster_does_not_define", rule_name_the_cluster_does_not_define),
    Rule(1, "directive_names_a_shell_variable", rule_directive_names_a_shell_variable),
    Rule(1, "step_ended_at_its_own_srun_time_limit", rule_step_ended_at_its_own_srun_time_limit),
    Rule(1, "model_server_job_ended_at_its_time_limit", rule_model_server_job_ended_at_its_time_limit),
    Rule(1, "time_limit_shortened_while_it_ran", rule_time_limit_shortened_while_it_ran),
    Rule(1, "sleep_takes_the_time_limit", rule_sleep_takes_the_time_limit),
    Rule(1, "signal_before_the_limit_without_a_trap", rule_signal_before_the_limit_without_a_trap),
    Rule(1, "rollout_retries_turned_off", rule_rollout_retries_turned_off),
    Rule(1, "job_spent_its_time_waiting_for_a_lock", rule_job_spent_its_time_waiting_for_a_lock),
    Rule(1, "shards_wait_for_each_others_lock", rule_shards_wait_for_each_others_lock),
    Rule(1, "collection_timed_out_waiting_for_a_lock", rule_collection_timed_out_waiting_for_a_lock),
    Rule(1, "image_build_past_its_timeout", rule_image_build_past_its_timeout),
    Rule(1, "partial_target_kept_by_make", rule_partial_target_kept_by_make),
    Rule(1, "clean_glob_misses_a_hidden_stamp", rule_clean_glob_misses_a_hidden_stamp),
    Rule(1, "task_target_taken_for_a_file", rule_task_target_taken_for_a_file),
    Rule(1, "makefile_assignment_overrides_the_environment", rule_makefile_assignment_overrides_the_environment),
    Rule(1, "included_makefile_overrides_an_assignment", rule_included_makefile_overrides_an_assignment),
    Rule(1, "shell_variable_in_a_make_recipe", rule_shell_variable_in_a_make_recipe),
    Rule(1, "make_recipe_changes_folder_on_a_line_of_its_own", rule_make_recipe_changes_folder_on_a_line_of_its_own),
    Rule(1, "command_run_from_a_read_only_folder", rule_command_run_from_a_read_only_folder),
    Rule(1, "warning_raised_as_an_error", rule_warning_raised_as_an_error),
    Rule(1, "shared_memory_full", rule_shared_memory_full),
    Rule(1, "traffic_shaping_throttles_the_run", rule_traffic_shaping_throttles_the_run),
    Rule(1, "task_setting_ignored", rule_task_setting_ignored),
    Rule(1, "task_image_entrypoint_runs_nothing_it_is_given", rule_task_image_entrypoint_runs_nothing_it_is_given),
    Rule(1, "task_image_runs_as_a_user_that_cannot_write", rule_task_image_runs_as_a_user_that_cannot_write),
    Rule(1, "gym_server_config_pins_a_taken_port", rule_gym_server_config_pins_a_taken_port),
    Rule(1, "client_container_on_its_own_loopback", rule_client_container_on_its_own_loopback),
    Rule(1, "container_borrowing_from_one_not_running", rule_container_borrowing_from_one_not_running),
    Rule(1, "container_option_this_node_cannot_honour", rule_container_option_this_node_cannot_honour),
    Rule(1, "read_only_container_without_a_writable_tmp", rule_read_only_container_without_a_writable_tmp),
    Rule(1, "container_serves_a_link_to_a_host_path", rule_container_serves_a_link_to_a_host_path),
    Rule(1, "container_variable_given_twice", rule_container_variable_given_twice),
    Rule(1, "program_missing_where_the_script_ran", rule_program_missing_where_the_script_ran),
    Rule(1, "known_problems", known_problems(1)),
    Rule(2, "server_started_in_a_command_substitution", rule_server_started_in_a_command_substitution),
    Rule(2, "server_session_name_taken", rule_server_session_name_taken),
    Rule(2, "server_stopped_after_waiting_for_one_job", rule_server_stopped_after_waiting_for_one_job),
    Rule(2, "checkpoint_taken_from_the_first_log_line", rule_checkpoint_taken_from_the_first_log_line),
    Rule(2, "step_taken_from_the_trainer_states_first_entry", rule_step_taken_from_the_trainer_states_first_entry),
    Rule(2, "wrapper_adds_an_option_its_caller_gave", rule_wrapper_adds_an_option_its_caller_gave),
    Rule(2, "checkpoint_deleted_after_it_was_chosen", rule_checkpoint_deleted_after_it_was_chosen),
    Rule(2, "step_padded_as_octal", rule_step_padded_as_octal),
    Rule(2, "checkpoint_link_resolved_from_its_own_folder", rule_checkpoint_link_resolved_from_its_own_folder),
    Rule(2, "readiness_wait_counts_an_error_as_ready", rule_readiness_wait_counts_an_error_as_ready),
    Rule(2, "watchdog_checks_a_route_the_server_lacks", rule_watchdog_checks_a_route_the_server_lacks),
    Rule(2, "model_port_held_by_another_server", rule_model_port_held_by_another_server),
    Rule(2, "endpoint_not_where_server_listens", rule_endpoint_not_where_server_listens),
    Rule(2, "url_without_scheme", rule_url_without_scheme),
    Rule(2, "host_name_resolves_elsewhere", rule_host_name_resolves_elsewhere),
    Rule(2, "host_name_resolves_where_nothing_listens", rule_host_name_resolves_where_nothing_listens),
    Rule(2, "model_url_from_the_environment", rule_model_url_from_the_environment),
    Rule(2, "model_probe", rule_model_probe),
    # a config cause read before the model server's refusals it explains (the name it was asked for)
    Rule(2, "model_name_fallen_back_to_a_settings_default", rule_model_name_fallen_back_to_a_settings_default),
    Rule(2, "nested_model_errors", rule_nested_model_errors),
    Rule(2, "client_timeout_too_short", rule_client_timeout_too_short),
    Rule(2, "proxy_rewrites_the_exchange", rule_proxy_rewrites_the_exchange),
    Rule(2, "proxy_counts_content_length_in_characters", rule_proxy_counts_content_length_in_characters),
    Rule(2, "server_restarted_on_other_weights", rule_server_restarted_on_other_weights),
    Rule(2, "model_endpoint_failures", rule_model_endpoint_failures),
    Rule(2, "model_replies_unusable", rule_model_replies_unusable),
    Rule(2, "replies_emptied_on_the_way", rule_replies_emptied_on_the_way),
    Rule(2, "model_refusals", rule_model_refusals),
    Rule(2, "question_and_answer_swapped", rule_question_and_answer_swapped),
    Rule(2, "one_reply_to_different_prompts", rule_one_reply_to_different_prompts),
    Rule(2, "answers_from_a_second_server", rule_answers_from_a_second_server),
    Rule(2, "repeats_sampled_alike", rule_repeats_sampled_alike),
    Rule(2, "model_request_retries", rule_model_request_retries),
    Rule(2, "run_failures_without_sidecar", rule_run_failures_without_sidecar),
    Rule(2, "nested_model_log_errors", rule_nested_model_log_errors),
    Rule(2, "collection_took_the_first_listed_model", rule_collection_took_the_first_listed_model),
    Rule(2, "served_another_checkpoint", rule_served_another_checkpoint),
    Rule(2, "oldest_checkpoint_served_as_newest", rule_oldest_checkpoint_served_as_newest),
    Rule(2, "checkpoint_taken_in_directory_order", rule_checkpoint_taken_in_directory_order),
    Rule(2, "best_checkpoint_by_the_highest_loss", rule_best_checkpoint_by_the_highest_loss),
    Rule(2, "best_checkpoint_by_a_text_sort", rule_best_checkpoint_by_a_text_sort),
    Rule(2, "checkpoint_folder_one_level_up", rule_checkpoint_folder_one_level_up),
    Rule(2, "newest_checkpoint_by_text_sort", rule_newest_checkpoint_by_text_sort),
    Rule(2, "newest_checkpoint_by_modification_time", rule_newest_checkpoint_by_modification_time),
    Rule(2, "checkpoint_variable_exported_to_the_serving_script",
         rule_checkpoint_variable_exported_to_the_serving_script),
    Rule(2, "older_version_picked_from_a_listing", rule_older_version_picked_from_a_listing),
    Rule(2, "non_version_picked_from_a_listing", rule_non_version_picked_from_a_listing),
    Rule(2, "checkpoint_of_another_run_served", rule_checkpoint_of_another_run_served),
    Rule(2, "checkpoint_of_another_experiment_served", rule_checkpoint_of_another_experiment_served),
    Rule(2, "checkpoint_left_uncollected", rule_checkpoint_left_uncollected),
    Rule(2, "model_url_carries_an_inline_comment", rule_model_url_carries_an_inline_comment),
    Rule(2, "replicas_of_other_checkpoints", rule_replicas_of_other_checkpoints),
    Rule(2, "servers_given_one_ready_file", rule_servers_given_one_ready_file),
    Rule(2, "deployed_checkpoint_not_the_one_served", rule_deployed_checkpoint_not_the_one_served),
    Rule(2, "newest_day_first_folder_taken_by_name", rule_newest_day_first_folder_taken_by_name),
    Rule(2, "dated_archive_picked_by_a_sorted_glob", rule_dated_archive_picked_by_a_sorted_glob),
    Rule(2, "summary_table_made_once", rule_summary_table_made_once),
    Rule(2, "model_url_pinned_to_an_older_server", rule_model_url_pinned_to_an_older_server),
    Rule(2, "gateway_forwards_to_an_older_checkpoint", rule_gateway_forwards_to_an_older_checkpoint),
    Rule(2, "share_sent_to_a_server_of_another_checkpoint", rule_share_sent_to_a_server_of_another_checkpoint),
    Rule(2, "compressed_replies", rule_compressed_replies),
    Rule(2, "model_server_started_for_every_pass", rule_model_server_started_for_every_pass),
    Rule(2, "interrupted_collection", rule_interrupted_collection),
    Rule(2, "one_answer_to_every_task", rule_one_answer_to_every_task),
    Rule(2, "sbatch_option_after_the_script", rule_sbatch_option_after_the_script),
    Rule(2, "folder_mounted_as_a_named_volume", rule_folder_mounted_as_a_named_volume),
    Rule(2, "container_name_held_by_an_earlier_run", rule_container_name_held_by_an_earlier_run),
    Rule(2, "known_problems", known_problems(2)),
    Rule(3, "false_given_to_an_option_read_with_bool", rule_false_given_to_an_option_read_with_bool),
    Rule(3, "option_appended_to_its_default", rule_option_appended_to_its_default),
    Rule(3, "switch_that_is_always_on", rule_switch_that_is_always_on),
    Rule(3, "flag_ignored_by_parse_known_args", rule_flag_ignored_by_parse_known_args),
    Rule(3, "settings_table_read_at_the_wrong_level", rule_settings_table_read_at_the_wrong_level),
    Rule(3, "override_file_still_cuts_the_eval_down", rule_override_file_still_cuts_the_eval_down),
    Rule(3, "setting_read_under_another_spelling", rule_setting_read_under_another_spelling),
    Rule(3, "variable_set_without_export", rule_variable_set_without_export),
    Rule(3, "defaults_merged_over_the_settings", rule_defaults_merged_over_the_settings),
    Rule(3, "settings_file_merged_over_the_command_line", rule_settings_file_merged_over_the_command_line),
    Rule(3, "job_renamed_on_the_command_line", rule_job_renamed_on_the_command_line),
    Rule(3, "list_items_joined_by_a_missing_comma", rule_list_items_joined_by_a_missing_comma),
    Rule(3, "settings_key_given_twice", rule_settings_key_given_twice),
    Rule(3, "task_env_value_with_a_shell_variable", rule_task_env_value_with_a_shell_variable),
    Rule(3, "verification_skipped_by_a_kept_setting", rule_verification_skipped_by_a_kept_setting),
    Rule(3, "model_url_replaced_by_an_endpoint_file", rule_model_url_replaced_by_an_endpoint_file),
    Rule(3, "servers_given_too_short_a_spinup_timeout", rule_servers_given_too_short_a_spinup_timeout),
    Rule(3, "rows_left_undispatched_by_the_dispatch_budget", rule_rows_left_undispatched_by_the_dispatch_budget),
    Rule(3, "servers_only_prepared_by_a_kept_dry_run", rule_servers_only_prepared_by_a_kept_dry_run),
    Rule(3, "port_range_narrower_than_the_servers_gym_starts", rule_port_range_narrower_than_the_servers_gym_starts),
    Rule(3, "servers_not_ready", rule_servers_not_ready),
    Rule(3, "head_probe", rule_head_probe),
    Rule(4, "sandbox_cannot_reach_model", rule_sandbox_cannot_reach_model),
    Rule(4, "tool_env_hangs", rule_tool_env_hangs),
    Rule(4, "known_problems", known_problems(4)),
    Rule(5, "repeated_tasks", rule_repeated_tasks),
    Rule(5, "stage_copy_not_replaced_by_sbcast", rule_stage_copy_not_replaced_by_sbcast),
    Rule(5, "stale_inputs", rule_stale_inputs),
    Rule(5, "folder_moved_into_the_one_it_meant_to_replace", rule_folder_moved_into_the_one_it_meant_to_replace),
    Rule(5, "sed_replacement_ampersand_pastes_the_placeholder", rule_sed_replacement_ampersand_pastes_the_placeholder),
    Rule(5, "taskset_refreshed_without_overwriting", rule_taskset_refreshed_without_overwriting),
    Rule(5, "inputs_of_another_file_than_the_script_names", rule_inputs_of_another_file_than_the_script_names),
    Rule(5, "linked_data_replaced_by_a_copy", rule_linked_data_replaced_by_a_copy),
    Rule(5, "folder_link_followed_instead_of_replaced", rule_folder_link_followed_instead_of_replaced),
    Rule(5, "download_saved_beside_the_file_read", rule_download_saved_beside_the_file_read),
    Rule(5, "browser_download_saved_beside_the_file_read", rule_browser_download_saved_beside_the_file_read),
    Rule(5, "package_imported_from_a_stale_deployed_copy", rule_package_imported_from_a_stale_deployed_copy),
    Rule(5, "package_kept_by_pip_target", rule_package_kept_by_pip_target),
    Rule(5, "data_kept_by_an_unpacking_tool", rule_data_kept_by_an_unpacking_tool),
    Rule(5, "verifier_run_from_unchecked_bytecode", rule_verifier_run_from_unchecked_bytecode),
    Rule(5, "settings_sourced_from_path", rule_settings_sourced_from_path),
    Rule(5, "module_run_from_stale_bytecode", rule_module_run_from_stale_bytecode),
    Rule(5, "resume_with_other_settings_than_its_inputs", rule_resume_with_other_settings_than_its_inputs),
    Rule(5, "inputs_from_a_copy_staged_before_a_fix", rule_inputs_from_a_copy_staged_before_a_fix),
    Rule(5, "rollouts_kept_by_a_build_tool", rule_rollouts_kept_by_a_build_tool),
    # after every reading of how the address of an older server was taken (step 2 and the build tool's above)
    Rule(5, "rollouts_from_a_server_the_run_did_not_start", rule_rollouts_from_a_server_the_run_did_not_start),
    Rule(5, "resume_across_models", rule_resume_across_models),
    Rule(5, "limited_inputs", rule_limited_inputs),
    Rule(5, "empty_inputs", rule_empty_inputs),
    Rule(5, "data_file_its_writer_never_wrote", rule_data_file_its_writer_never_wrote),
    Rule(5, "bad_data_line", rule_bad_data_line),
    Rule(5, "malformed_jsonl", rule_malformed_jsonl),
    Rule(5, "rollouts_without_inputs", rule_rollouts_without_inputs),
    Rule(5, "rollouts_of_other_inputs", rule_rollouts_of_other_inputs),
    Rule(5, "shared_task_index", rule_shared_task_index),
    Rule(5, "one_prompt_for_most_tasks", rule_one_prompt_for_most_tasks),
    Rule(5, "data_rows_give_a_field_twice", rule_data_rows_give_a_field_twice),
    Rule(5, "prompts_with_a_chat_template", rule_prompts_with_a_chat_template),
    Rule(5, "prompts_ending_with_an_assistant_turn", rule_prompts_ending_with_an_assistant_turn),
    Rule(5, "labels_decoded_with_the_wrong_encoding", rule_labels_decoded_with_the_wrong_encoding),
    Rule(5, "labels_from_another_column", rule_labels_from_another_column),
    Rule(5, "questions_lost_or_cut_by_the_prep_script", rule_questions_lost_or_cut_by_the_prep_script),
    Rule(5, "read_loops_that_lose_what_they_read", rule_read_loops_that_lose_what_they_read),
    Rule(5, "labels_that_are_a_missing_value", rule_labels_that_are_a_missing_value),
    Rule(5, "labels_cut_by_strip_with_a_word", rule_labels_cut_by_strip_with_a_word),
    Rule(5, "prompts_cut_at_one_length", rule_prompts_cut_at_one_length),
    Rule(5, "conflicting_labels", rule_conflicting_labels),
    Rule(5, "questions_written_once_per_sample", rule_questions_written_once_per_sample),
    Rule(5, "rows_of_another_format", rule_rows_of_another_format),
    Rule(5, "crossed_environments", rule_crossed_environments),
    Rule(5, "verifier_refuses_row_values", rule_verifier_refuses_row_values),
    Rule(5, "tasks_older_than_their_source", rule_tasks_older_than_their_source),
    Rule(5, "known_problems", known_problems(5)),
    Rule(6, "server_venv_older_than_its_requirements", rule_server_venv_older_than_its_requirements),
    Rule(6, "rollouts_written_elsewhere", rule_rollouts_written_elsewhere),
    Rule(6, "completion_line_of_an_earlier_run", rule_completion_line_of_an_earlier_run),
    Rule(6, "collection_backgrounded_before_its_profile", rule_collection_backgrounded_before_its_profile),
    Rule(6, "collection_piped_into_head", rule_collection_piped_into_head),
    Rule(6, "collections_paced_past_their_time_budget", rule_collections_paced_past_their_time_budget),
    Rule(6, "collection_cut_by_its_time_budget", rule_collection_cut_by_its_time_budget),
    Rule(6, "missing_rollouts", rule_missing_rollouts),
    Rule(6, "every_rollout_masked", rule_every_rollout_masked),
    Rule(6, "partial_profile_log", rule_partial_profile_log),
    Rule(6, "profile_of_swapped_files", rule_profile_of_swapped_files),
    Rule(6, "profile_counts", rule_profile_counts),
    Rule(6, "profile_of_an_older_run", rule_profile_of_an_older_run),
    Rule(6, "summary_of_an_older_run", rule_summary_of_an_older_run),
    Rule(6, "results_published_without_overwriting", rule_results_published_without_overwriting),
    Rule(6, "copy_kept_the_existing_file", rule_copy_kept_the_existing_file),
    Rule(6, "stale_files", rule_stale_files),
    Rule(6, "replies_from_an_earlier_run", rule_replies_from_an_earlier_run),
    Rule(6, "several_writers", rule_several_writers),
    Rule(6, "run_directory_in_use", rule_run_directory_in_use),
    Rule(6, "yes_no_setting_read_with_bool", rule_yes_no_setting_read_with_bool),
    Rule(6, "letters_stripped_as_a_set", rule_letters_stripped_as_a_set),
    Rule(6, "zero_answer_taken_for_none", rule_zero_answer_taken_for_none),
    Rule(6, "truncated_answers", rule_truncated_answers),
    Rule(6, "unextracted_answers", rule_unextracted_answers),
    Rule(6, "last_line_answers_scored_zero", rule_last_line_answers_scored_zero),
    Rule(6, "wrapped_expected_answers", rule_wrapped_expected_answers),
    Rule(6, "invisible_characters_in_expected_answers", rule_invisible_characters_in_expected_answers),
    Rule(6, "expected_answers_in_other_typography", rule_expected_answers_in_other_typography),
    Rule(6, "expected_answers_without_spaces", rule_expected_answers_without_spaces),
    Rule(6, "labels_truncated_to_integers", rule_labels_truncated_to_integers),
    Rule(6, "labels_cut_to_their_first_character", rule_labels_cut_to_their_first_character),
    Rule(6, "labels_kept_from_the_source_language", rule_labels_kept_from_the_source_language),
    Rule(6, "labels_rewritten_by_the_prep", rule_labels_rewritten_by_the_prep),
    Rule(6, "labels_read_as_dates", rule_labels_read_as_dates),
    Rule(6, "labels_in_roman_numerals", rule_labels_in_roman_numerals),
    Rule(6, "labels_in_a_spreadsheets_display_format", rule_labels_in_a_spreadsheets_display_format),
    Rule(6, "yes_no_labels_read_as_booleans", rule_yes_no_labels_read_as_booleans),
    Rule(6, "clock_time_labels_read_as_base_60", rule_clock_time_labels_read_as_base_60),
    Rule(6, "html_entities_in_expected_answers", rule_html_entities_in_expected_answers),
    Rule(6, "rows_cut_at_quoted_commas", rule_rows_cut_at_quoted_commas),
    Rule(6, "accepted_answers_joined_into_one_label", rule_accepted_answers_joined_into_one_label),
    Rule(6, "integer_labels_rounded_through_a_double", rule_integer_labels_rounded_through_a_double),
    Rule(6, "numbers_written_otherwise_in_expected_answers", rule_numbers_written_otherwise_in_expected_answers),
    Rule(6, "labels_rounded_half_to_even", rule_labels_rounded_half_to_even),
    Rule(6, "last_line_cut_by_a_newline_slice", rule_last_line_cut_by_a_newline_slice),
    Rule(6, "labels_one_row_off", rule_labels_one_row_off),
    Rule(6, "labels_of_other_tasks", rule_labels_of_other_tasks),
    Rule(6, "answers_cut_by_the_extraction", rule_answers_cut_by_the_extraction),
    Rule(6, "answers_in_other_typography_scored_0", rule_answers_in_other_typography_scored_0),
    Rule(6, "profile_of_other_tasks", rule_profile_of_other_tasks),
    Rule(6, "profile_of_other_rewards", rule_profile_of_other_rewards),
    Rule(6, "rewards_out_of_range", rule_rewards_out_of_range),
    Rule(6, "long_answers_dropped_by_a_length_guard", rule_long_answers_dropped_by_a_length_guard),
    Rule(6, "matching_answers_scored_zero", rule_matching_answers_scored_zero),
    Rule(6, "wrong_answers_scored_full", rule_wrong_answers_scored_full),
    Rule(6, "other_answers_credited", rule_other_answers_credited),
    Rule(6, "expected_answers_not_options", rule_expected_answers_not_options),
    Rule(6, "expected_answers_case_lost", rule_expected_answers_case_lost),
    Rule(6, "placeholder_labels", rule_placeholder_labels),
    Rule(6, "labels_holding_the_answer_marker", rule_labels_holding_the_answer_marker),
    Rule(6, "labels_with_float_noise", rule_labels_with_float_noise),
    Rule(6, "labels_with_doubled_backslashes", rule_labels_with_doubled_backslashes),
    Rule(6, "labels_with_non_ascii_replaced", rule_labels_with_non_ascii_replaced),
    Rule(6, "options_shuffled_without_their_answers", rule_options_shuffled_without_their_answers),
    Rule(6, "known_problems", known_problems(6)),
    Rule(7, "connection_pool_below_the_concurrency", rule_connection_pool_below_the_concurrency),
    Rule(7, "time_budget_kinds", rule_time_budget_kinds),
    Rule(7, "step_failures", rule_step_failures),
    Rule(7, "sidecar_file_gone", rule_sidecar_file_gone),
    Rule(7, "nested_verifier_errors", rule_nested_verifier_errors),
    Rule(7, "nested_verifier_log_errors", rule_nested_verifier_log_errors),
    Rule(7, "malformed_verify_response", rule_malformed_verify_response),
    Rule(7, "verifier_failures", rule_verifier_failures),
    Rule(7, "failure_kinds", rule_failure_kinds),
    Rule(7, "timeouts", rule_timeouts),
    Rule(7, "verifier_timeouts", rule_verifier_timeouts),
    Rule(7, "other_failures", rule_other_failures),
    Rule(7, "flaky_verifier", rule_flaky_verifier),
    Rule(7, "test_expects_unreachable_text", rule_test_expects_unreachable_text),
    Rule(7, "test_reads_the_solution_folder", rule_test_reads_the_solution_folder),
    Rule(7, "expected_file_without_final_newline", rule_expected_file_without_final_newline),
    Rule(7, "test_deletes_the_answer_it_checks", rule_test_deletes_the_answer_it_checks),
    Rule(7, "test_passes_whatever_the_agent_did", rule_test_passes_whatever_the_agent_did),
    Rule(7, "known_problems", known_problems(7)),
    Rule(8, "request_schema", rule_request_schema),
    # last, and only when no reading of a particular fault (a test's, a data file's, the task's settings) spoke
    Rule(8, "test_rejects_the_tasks_own_solution", rule_test_rejects_the_tasks_own_solution),
)
RULES = with_task_folder_rules(RULES)  # task-folder runs of our engine, read through their run summary
assert [r.step for r in RULES] == sorted(r.step for r in RULES), "RULES must follow the debug order"
assert set(r.step for r in RULES) == set(DEBUG_STEPS), "every debug step has rules"


def _restates_earlier(finding: Finding, earlier: list[Finding]) -> bool:
    cited = {(line.file, line.line) for f in earlier for line in f.evidence}
    return all((line.file, line.line) in cited for line in finding.evidence)


def run_rules(ev: Evidence, rules: Iterable[Rule] = RULES) -> list[Finding]:
    """Every rule's findings in the debug order, with the unexplained log errors, linked by `link_causes`."""
    ordered: list[tuple[int, Finding]] = []  # (debug step, finding)
    names: Counter[str] = Counter()
    for rule in rules:
        for finding in _checked(rule, ev):
            if finding.subsumable and _restates_earlier(finding, [f for _, f in ordered]):
                continue
            if rule.name in _FALLBACKS and any(not earlier.effect for _, earlier in ordered):
                continue  # a reading of a particular fault already spoke
            names[rule.name] += 1
            finding = _with_the_verifiers_lines(ev, rule.name, _recovered_is_a_note(ev, finding))
            finding = _with_the_proxy_in_between(ev, finding)
            ordered.append((rule.step, _named(finding, rule.name, names[rule.name])))
    # an error no rule explains goes where the guide checks its category
    for finding in unexplained_log_errors(ev, [f for _, f in ordered]):
        # a guess goes after every finding placed on evidence
        step = max(DEBUG_STEPS) + 1 if finding.guess else STEP_OF_CATEGORY[finding.category]
        names["log_error"] += 1
        position = next((i for i, (s, _) in enumerate(ordered) if s > step), len(ordered))
        ordered.insert(position, (step, _named(finding, "log_error", names["log_error"])))
    findings = [finding for _, finding in ordered]
    if given_up := max((int(hit.groups["count"]) for hit in ev.hits("resume_kept_given_up")), default=0):
        findings = [_before_the_resume_is_a_note(finding, given_up) for finding in findings]
    if collection_complete(ev) and not _latest_run_failed(findings):
        profiled = ev.artifacts.files.profile.is_file()
        findings = [_superseded_is_a_note(finding, profiled, set(ev.logs.files), ev.run_dir) for finding in findings]
    return link_causes(findings)


def _checked(rule: Rule, ev: Evidence) -> list[Finding]:
    """A rule's findings; a rule that raises on a folder it did not expect costs its own findings, with a note
    saying so, not the whole report."""
    try:
        return rule.check(ev)
    except Exception as error:  # noqa: BLE001 (any bug of one rule)
        logger.exception("diagnosis rule %s failed on %s", rule.name, ev.run_dir)
        # the category the guide checks at this step or next; a note never sets the report's category
        category = min((step, category) for category, step in STEP_OF_CATEGORY.items() if step >= rule.step)[1]
        return [Finding(
            category=category, role=NOTE,
            title=f"The diagnosis rule `{rule.name}` failed on this folder ({type(error).__name__}: {error}); the "
                  "other rules ran",
            cause="A fault of the diagnosis, not of the run: this rule could not read something in the folder, so "
                  "what it checks (debug step " + str(rule.step) + ") is not in this report.",
            fix="Check that step by hand (the guide's debug order), and report the fault with the folder's layout.",
            diagnosis_fault=True,
        )]


def _latest_run_failed(findings: list[Finding]) -> bool:
    """A failed Dagster run's error is about the latest attempt, whatever the folder holds from earlier ones."""
    return any(line.file in (FAILED_RUN_SOURCE, FAILED_RUN_LOG) for f in findings for line in f.evidence)


# Only in a log: an error of an attempt that a later one made good (a first run against a wrong URL, then a rerun)
_SUPERSEDED_CATEGORIES = frozenset({INFRA, MODEL_SERVING, CONFIG})
_LOG_SUFFIXES = (".log", ".out", ".err", ".txt")


def _superseded_is_a_note(finding: Finding, profiled: bool, logs: set[str], run_dir: Path | None) -> Finding:
    """In a complete run, a serving, infra or config error that only a log shows did not stop the collection that
    wrote these outputs (an earlier attempt's, or one after it): worth a note, not a fault. Unless it is the profile
    stage's and there is no profile: that stage, after the collection, is what it stopped. `logs`: the run's logs
    (a user's settings kept as a .txt file are not one)."""
    only_in_logs = finding.evidence and all(line.file.endswith(_LOG_SUFFIXES) and (line.file in logs or not
                                                                                   line.file.endswith(".txt"))
                                            for line in finding.evidence)
    # an error line no rule explains about a file the run has now, in a run whose outputs are whole and profiled,
    # stopped nothing of them (a `mv` of last run's rollouts on a first run): whatever words placed it
    unexplained = finding.id.startswith("log_error") and profiled and _names_a_file_made_since(finding, run_dir)
    if finding.role != CAUSE or not (finding.category in _SUPERSEDED_CATEGORIES or finding.guess or unexplained) \
            or not only_in_logs or finding.about_the_outputs:
        return finding
    if not profiled and REFUSED_COMMAND_LINE not in finding.cause \
            and all(stage_of_log(line.file) == PROFILE_STAGE for line in finding.evidence):
        return finding
    if any(host_limit(line.text) for line in finding.evidence):
        return finding  # a full, read-only or size-limited disk is still there for the next stage

    return finding.model_copy(update={"role": NOTE, "title": f"Only a log shows it, and the outputs are complete: "
                                                              f"{finding.title}"})


_MISSING_FILE = re.compile(r"cannot (?:stat|access|open) [‘'\"]?(?P<path>[^’'\":\s]+)[’'\"]?: No such file")


def _names_a_file_made_since(finding: Finding, run_dir: Path | None) -> bool:
    """Whether the error says a file of the run folder was missing that the folder holds now."""
    found = next((match for line in finding.evidence if (match := _MISSING_FILE.search(line.text))), None)
    return found is not None and run_dir is not None and (run_dir / found["path"]).exists()


def _before_the_resume_is_a_note(finding: Finding, given_up: int) -> Finding:
    """Failed attempts of rollouts an earlier run gave up on, which the resume then left alone: what the endpoint did
    then says nothing of now; the resume that retried none of them is what to act on."""
    if finding.role != CAUSE or finding.category != MODEL_SERVING or not finding.failed_keys \
            or len(finding.failed_keys) > given_up:
        return finding
    return finding.model_copy(update={"role": NOTE, "title": f"Before the resume (it retried none of these): "
                                                              f"{finding.title}"})


def _recovered_is_a_note(ev: Evidence, finding: Finding) -> Finding:
    """Failed attempts whose keys all have a rollout now were retried successfully: worth a note, no fault."""
    if not finding.failed_keys or finding.failed_keys & set(ev.artifacts.missing_keys):
        return finding
    return finding.model_copy(update={"role": NOTE, "title": f"Recovered on retry: {finding.title}"})


# the readings of scored rows that blame how the verifier takes the answer apart, or compares it
_BLAMES_THE_VERIFIERS = {
    "unextracted_answers": EXTRACTION, "last_line_answers_scored_zero": EXTRACTION,
    "answers_cut_by_the_extraction": EXTRACTION, "answers_in_other_typography_scored_0": COMPARISON,
    "wrong_answers_scored_full": COMPARISON, "matching_answers_scored_zero": COMPARISON,
    "other_answers_credited": COMPARISON,
}


# ... of them, those that credit wrong answers: an `except` giving full credit is the usual cause
_CREDITS_WRONG_ANSWERS = frozenset({"wrong_answers_scored_full", "other_answers_credited"})


def _with_the_verifiers_lines(ev: Evidence, rule: str, finding: Finding) -> Finding:
    """A verifier fault read from the rows, with the verifier's own lines that do what it blames, when the run folder
    holds its code; and shared module state its async `verify` writes across an `await` (a race between requests)."""
    if rule not in _BLAMES_THE_VERIFIERS or finding.role != CAUSE or finding.category != VERIFIER_RUNTIME:
        return finding
    sources, run_dir = ev.verifier_sources, ev.run_dir
    # what the verify rewrites (most often what a copy of a stock verifier added) before what merely matches
    lines = list(dict.fromkeys([*answer_rewrites(sources, run_dir),
                                *verify_lines(sources, run_dir, _BLAMES_THE_VERIFIERS[rule])]))[:2]
    shared = state_shared_across_awaits(sources, run_dir)
    credits = handlers_giving_full_credit(sources, run_dir) if rule in _CREDITS_WRONG_ANSWERS else []
    undefined = undefined_names(sources, run_dir)[:1]
    encoded = encoded_texts(sources, run_dir)[:1]
    uncalled = uncalled_methods(sources, run_dir)[:1] if rule == "matching_answers_scored_zero" else []
    skips = skips_of_another_length(sources, run_dir)[:1] if _BLAMES_THE_VERIFIERS[rule] == EXTRACTION else []
    kept = mutable_defaults(sources, run_dir)[:1] if rule == "matching_answers_scored_zero" else []
    same_object = identity_comparisons(sources, run_dir)[:1] if rule not in _CREDITS_WRONG_ANSWERS else []
    as_count = flags_given_as_count(sources, run_dir)[:1] if _BLAMES_THE_VERIFIERS[rule] == EXTRACTION else []
    spent = one_pass_iterators_kept(sources, run_dir)[:1] if rule not in _CREDITS_WRONG_ANSWERS else []
    clamped = swapped_clamps(sources, run_dir)[:1]
    if not any((lines, shared, credits, undefined, encoded, uncalled, skips, kept, same_object, as_count, spent,
                clamped)):
        return finding
    race = (f" {shared[0]}:{shared[1]} keeps the request being verified in the module-level `{shared[2]}`, which "
            "`verify` writes and reads back across an `await`: concurrent requests overwrite it, so an answer is "
            f"graded against another row's label. Keep per-request values in local variables, not in `{shared[2]}`: "
            f"compare with `{shared[3]}` itself."
            if shared else "")
    code = ("In the verifier's code: " + "; ".join(f"{file}:{number} `{text}`" for file, number, text in lines) + "."
            if lines else "") + _one_sided(lines) + _signed_tolerance(lines) \
        + (_bytes_against_text(encoded) if rule == "matching_answers_scored_zero" else "") \
        + (_marker_of_other_case(ev) if _BLAMES_THE_VERIFIERS[rule] == EXTRACTION else "")
    if credits:  # the handler that credits what it cannot parse is what to change: it comes first
        code = (f"{credits[0][0]}:{credits[0][1]} `{credits[0][2]}` gives full credit: every answer that raises there "
                f"(not a number, a parse failure) scores 1 whatever it says; return 0 there. {code}").rstrip()
        lines = [*credits[:1], *lines][:3]
    if skips:  # the marker found is not the one skipped: the answer is cut by the difference
        file, number, text, looked_for, skipped = skips[0]
        code = (f"{file}:{number} `{text}` skips len({skipped!r}) = {len(skipped)} characters after where it found "
                f"{looked_for!r} ({len(looked_for)}): "
                + (f"the first {len(skipped) - len(looked_for)} characters of every answer are cut"
                   if len(skipped) > len(looked_for) else
                   f"{len(looked_for) - len(skipped)} characters of the marker stay in front of the answer")
                + f"; skip the length of the string it looked for, `len({looked_for!r})`, whatever `find`/`rfind` "
                f"found. {code}").rstrip()
        lines = [(file, number, text), *[line for line in lines if line[:2] != (file, number)]][:3]
    if kept:  # a default made once and shared by every call: state carried from one request to the next
        file, number, text, parameter = kept[0]
        code = (f"{file}:{number} `{text}` gives `{parameter}` a default made once, when the function is defined, "
                f"and shared by every call: what one request puts in `{parameter}` is still there for the next, so a "
                f"repeat of an answer is scored against the earlier ones. Default it to None and make a new one per "
                f"call (`{parameter}=None`, then `{parameter} = set() if {parameter} is None else {parameter}`), or "
                f"keep it local. {code}").rstrip()
        lines = [(file, number, text), *lines][:3]
    if same_object:  # `is` between two strings: false for equal answers made apart
        file, number, text = same_object[0]
        code = (f"{file}:{number} `{text}` compares with `is`, which asks whether two values are one object, not "
                "whether they are equal: an answer and a label made apart are two objects however alike they read, so "
                f"right answers score 0; compare with `==` (and `!=` for `is not`). {code}").rstrip()
        lines = [(file, number, text), *[line for line in lines if line[:2] != (file, number)]][:3]
    if as_count:  # flags given where the count goes: the pattern runs without them
        file, number, text, function, parameter = as_count[0]
        code = (f"{file}:{number} `{text}` gives the regex flags by position, where `re.{function}` takes "
                f"`{parameter}`: the pattern runs without them (case-sensitive, `.` not crossing lines), so it does "
                f"not match where the answer is; pass them by name, `re.{function}(..., flags=...)`. {code}").rstrip()
        lines = [(file, number, text), *[line for line in lines if line[:2] != (file, number)]][:3]
    if spent:  # an iterator kept for later calls: the first use empties it
        file, number, text, what = spent[0]
        code = (f"{file}:{number} `{text}` keeps a {what}, a one-pass iterator, for later calls: the first `in` or "
                "loop over it uses it up, so every later rollout of the task is compared with what is left (nothing); "
                f"keep a list or a set instead (`list(...)`, `set(...)`). {code}").rstrip()
        lines = [(file, number, text), *[line for line in lines if line[:2] != (file, number)]][:3]
    if clamped:  # bounds swapped: one value whatever the reward
        file, number, text, always = clamped[0]
        code = (f"{file}:{number} `{text}` clamps with its bounds swapped: the outer bound wins over any reward, so it "
                f"gives {always} every time; clamp with the lower bound outside, `max(0.0, min(1.0, reward))`. "
                f"{code}").rstrip()
        lines = [(file, number, text), *[line for line in lines if line[:2] != (file, number)]][:3]
    if uncalled:  # a comparison with a method object is false whatever the answer: what to change
        file, number, text, method = uncalled[0]
        code = (f"{file}:{number} `{text}` compares with `.{method}` without calling it: a bound method equals no "
                f"string, so the test is false for every answer; call it, `.{method}()`. {code}").rstrip()
        lines = [(file, number, text), *[line for line in lines if line[:2] != (file, number)]][:3]
    if undefined:  # a name never defined raises at every call: what the code says first
        file, number, text, name, closest = undefined[0]
        hiding = broad_handlers(sources, run_dir)[:1]
        code = (f"{file}:{number} `{text}` uses `{name}`, which the module never defines"
                + (f" (did you mean `{closest}`?)" if closest else "") + ": every call raises NameError"
                + (f", and {hiding[0][0]}:{hiding[0][1]} `{hiding[0][2]}` turns it into a reward without a word; "
                   "catch only the errors you expect there" if hiding else "") + f". {code}").rstrip()
        lines = [(file, number, text), *hiding, *lines][:3]
    return finding.model_copy(update={
        "evidence": [*finding.evidence, *(EvidenceLine(file=file, line=number, text=text) for file, number, text in lines)],
        "cause": finding.cause + race,
        "fix": f"{finding.fix} {code}{race}".rstrip(),
    })


def _with_the_proxy_in_between(ev: Evidence, finding: Finding) -> Finding:
    """A model-serving or throughput cause whose fix does not name the user's proxy before the model server, with
    the proxy and its settings: the requests met it before the server."""
    if finding.role != CAUSE or finding.category not in (MODEL_SERVING, THROUGHPUT_RESOURCES):
        return finding
    found = proxy_in_the_path(ev)
    if found is None or found[0] in finding.fix:
        return finding
    return finding.model_copy(update={"fix": finding.fix.rstrip() + found[1]})


def _one_sided(lines: list[tuple[str, int, str]]) -> str:
    """A sentence when the verify's lines rewrite the answer (`extracted = ...extracted...`) and none the expected
    answer: the two sides are compared in different forms."""
    rewritten = [(file, number) for file, number, text in lines if re.match(r"(?:extracted|answer|pred\w*)\w*\s*=", text)]
    if not rewritten or any(re.match(r"\w*(?:expected|label|gold|target)\w*\s*=", text) for _, _, text in lines):
        return ""
    file, number = rewritten[0]
    return (f" {file}:{number} rewrites only the answer: do the same to `expected_answer` before comparing (or to "
            "neither), so both sides are in one form.")


# a pattern compiled or applied without a flag: `re.compile(r"Final Answer:\s*(.+)")`, its literal words first
_PATTERN_CALL = re.compile(r"\bre\.(?:compile|search|findall|finditer|match|fullmatch)\(\s*r?(?P<q>[\"'])"
                           r"(?P<words>[A-Za-z][A-Za-z ]*[A-Za-z]:?)(?P<rest>[^\n]*)")


def _marker_of_other_case(ev: Evidence) -> str:
    """A sentence when the verifier looks for its answer marker with a case-sensitive pattern (`Final Answer:`) and
    the responses write it in another case (`Final answer:`)."""
    texts = [answer.text for answer in ev.answer_texts[:200]]
    for file, number, text in verify_lines(ev.verifier_sources, ev.run_dir, re.compile(r".")) \
            + _module_patterns(ev):
        if (call := _PATTERN_CALL.search(text)) is None or re.search(r"IGNORECASE|re\.I\b|\(\?i\)", text):
            continue
        words = call["words"]
        written = next((m[0] for t in texts if words not in t and (m := re.search(re.escape(words), t, re.I))), None)
        if written:
            return (f" {file}:{number} `{text}` looks for `{words}` in that case only, and the responses write "
                    f"`{written}`: add `re.IGNORECASE` (or match the case the prompt asks for).")
    return ""


def _module_patterns(ev: Evidence) -> list[tuple[str, int, str]]:
    """(file, line, text) of the verifiers' module-level lines that compile a pattern."""
    return [(shown, number, row.strip()) for shown, number, row in ev.verifier_lines if _PATTERN_CALL.search(row)]


def _bytes_against_text(encoded: list[tuple[str, int, str]]) -> str:
    """A sentence when the verifier's code encodes a text to bytes: compared with the row's str label, never equal."""
    if not encoded:
        return ""
    file, number, text = encoded[0]
    return (f" {file}:{number} `{text}` turns the text into bytes (`.encode(`): bytes never equal the row's str "
            "`expected_answer`, however alike they read; compare str with str (drop the `.encode(...)`, normalizing "
            "both sides alike) or encode both.")


# a relative tolerance scaled by a value that may be negative: `abs(got - want) <= 1e-6 * want`
_SIGNED_TOLERANCE = re.compile(r"<=?\s*(?P<bound>(?:[\d.]+(?:e-?\d+)?|\w*tol\w*)\s*\*\s*(?P<scale>[A-Za-z_][\w.]*)"
                               r"|(?P<scale2>[A-Za-z_][\w.]*)\s*\*\s*(?:[\d.]+(?:e-?\d+)?|\w*tol\w*))(?![\w.(])", re.I)


def _signed_tolerance(lines: list[tuple[str, int, str]]) -> str:
    """A sentence when a verify line bounds a difference by a relative tolerance scaled by the value itself, not
    its absolute value: for a negative expected answer the bound is negative, and nothing passes."""
    for file, number, text in lines:
        if (match := _SIGNED_TOLERANCE.search(text)) and "abs(" not in text[match.start():]:
            scale = match["scale"] or match["scale2"]
            if scale.lower() in {"abs", "max", "min"}:
                continue
            return (f" {file}:{number} scales the tolerance by `{scale}` itself: for a negative expected answer the "
                    f"tolerance is negative and no answer, however exact, passes; scale it by `abs({scale})` (or "
                    "compare with `math.isclose(got, want, rel_tol=...)`).")
    return ""


def _named(finding: Finding, rule: str, count: int) -> Finding:
    return finding.model_copy(update={"id": rule if count == 1 else f"{rule}-{count}"})


_WRAPPERS = ("launcher_state", "log_error")  # rule ids whose effects only say that something inside failed
# rule ids that speak only when no rule before them found anything but an effect
_FALLBACKS = ("test_rejects_the_tasks_own_solution",)


def link_causes(findings: list[Finding]) -> list[Finding]:
    """Findings in debug order -> the causal report's order: each cause followed by its consequences, notes last.

    An effect (what another problem can cause) is a consequence of the first cause; with no other
    cause, the first effect is itself the cause (a collection cut short with nothing to say why) and
    the later ones its consequences.
    """
    causes = [f for f in findings if f.role == CAUSE and not f.effect]
    effects = [f for f in findings if f.role == CAUSE and f.effect]
    notes = [f for f in findings if f.role == NOTE]
    if not causes and effects:
        # what says most about the failure leads: a stage that merely exited non-zero, or a command wrapping a
        # failed one, only when nothing else does
        lead = next((e for e in effects if not e.id.startswith(_WRAPPERS)), effects[0])
        causes, effects = [lead], [e for e in effects if e is not lead]
    if not causes:
        return notes
    top = causes[0]
    linked = [top, *(e.model_copy(update={"role": CONSEQUENCE, "caused_by": top.id}) for e in effects), *causes[1:]]
    return linked + notes
