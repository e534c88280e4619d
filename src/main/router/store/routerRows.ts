/**
 * The router's rows as SQLite holds them (migration 0005_router.sql): what the repository reads
 * and the write batch queues. Apart from both so neither imports the other for its types.
 */
import type {
  ExecutionStatus,
  OverallStatus,
  PublisherKind,
  PublisherStatus,
  RuleStatus,
  TargetStatus,
} from '../../../shared/ipc/areas/router';

export interface PublisherRow {
  id: string;
  name: string;
  kind: PublisherKind;
  service: string;
  status: PublisherStatus;
  api_key_hash: string | null;
  api_key_hint: string | null;
  system_key: string | null;
  created_at: number;
}

export interface EventConfigRow {
  id: string;
  publisher_id: string;
  api_name: string;
  sample: string | null;
  inference: string | null;
  edits: string;
  created_at: number;
  schema_version: number | null;
}

export interface SchemaVersionRow {
  event_config_id: string;
  version: number;
  schema: string;
  source: 'sample' | 'capture' | 'edit' | 'publisher';
  created_at: number;
}

export interface EventRow {
  id: string;
  publisher_id: string;
  event_config_id: string;
  api_name: string;
  time_ms: number;
  data: string;
  version: number | null;
  stage: 'received' | 'queued' | 'routed';
  publisher_status: PublisherStatus;
  overall_status: OverallStatus;
  schema_errors: string;
  redelivery_of: string | null;
}

export interface ExecutionRow {
  id: string;
  event_id: string;
  rule_id: string;
  target_id: string;
  rule_status: RuleStatus;
  target_status: TargetStatus;
  status: ExecutionStatus;
  retry_count: number;
  next_attempt_at: number | null;
  note: string | null;
}

export interface AttemptRow {
  execution_id: string;
  attempt: number;
  started_at: number;
  finished_at: number | null;
  request: string;
  response: string | null;
  error: string | null;
  outcome: 'pending' | 'success' | 'retry' | 'failed' | 'dropped';
}

export interface BinEntryRow {
  id: number;
  target_id: string;
  received_at: number;
  method: string;
  url: string;
  headers: string;
  body: string | null;
}

export interface CaptureRow {
  token: string;
  event_config_id: string;
  expires_at: number;
  captured: number;
}

export interface EventListRow {
  id: string;
  publisher_id: string;
  event_config_id: string;
  api_name: string;
  overall_status: OverallStatus;
  time_ms: number;
  rule_ids: string;
}
