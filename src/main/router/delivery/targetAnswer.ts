/** What a target answered, as recorded on the attempt; response bodies are cut at 64 KB. */
export interface TargetAnswer {
  response: { status: number; headers: Record<string, string>; body: string | null } | null;
  error: string | null;
}

export const MAX_RECORDED_RESPONSE_CHARS = 64 * 1024;
