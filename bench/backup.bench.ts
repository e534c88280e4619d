/**
 * A portal's backup archive, downloaded and verified by the app's own code (`npm run
 * bench:backup`, through bench/backup.mjs, which runs this file with vitest because the app's
 * sources are TypeScript).
 *
 * Spawns the built emulator (out/main/emulator.js) with enough records that its first portal
 * holds BACKUP_BENCH_RECORDS of them (the seed puts 60 % of `--records` there, 40 % in the
 * second), signs in through its Self Client, schedules a backup of that portal, moves the
 * emulated clock past its generation and reads the download link from the status. Then:
 *
 * - `archive_build_s`: a first whole download (`downloadAttempt`); the emulator builds the archive
 *   at its first download, so this is mostly the build
 * - `download_mb_s`: then BACKUP_BENCH_DOWNLOADS (5) whole downloads, each into a fresh `.part`
 *   file with `downloadAttempt` (streamed to disk, hashed, fsynced): archive bytes ÷ the median
 *   run's seconds; `download_split_ms` splits that run into request to headers, body, fsync
 * - `verify_mb_s`: `verifyArchive` on the last (every entry decrypted, its AES code and CRC
 *   checked, every JSON element parsed and counted); `sha256_mb_s`: `fileDigest` on it
 * - `peak_heap_mb`: the highest `heapUsed` sampled every 10 ms during the timed downloads and
 *   the verification, minus the baseline taken after a full GC just before them
 * - `resumed_ok`: a download cut half way by the emulator's `cutBody` fault, then resumed by a
 *   second `downloadAttempt` on the same `.part` file (a `Range` with `If-Range` answered 206 and
 *   appended), gives the same SHA-256 as the whole download and verifies with the same counts
 *
 * The request scheduler is not used (`send` is a plain fetch): it only decides when a request
 * goes, not how fast its body streams. MB are 10^6 bytes. Writes one JSON object to
 * BACKUP_BENCH_OUT (or prints it). BACKUP_BENCH_PROFILE=FILE writes a CPU profile of the
 * verification.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { it } from 'vitest';
import {
  DownloadFailure,
  downloadAttempt,
  type Downloaded,
} from '../src/main/backups/archiveDownload';
import { verifyArchive, type ArchiveCheck } from '../src/main/backups/archiveVerify';
import { fileDigest } from '../src/main/backups/fileDigest';
import { startCpuProfile } from './cpuProfile';
import { startBenchEmulator } from './startBenchEmulator';

const PORTAL_RECORDS = Number(process.env.BACKUP_BENCH_RECORDS ?? 100_000);
const OUT = process.env.BACKUP_BENCH_OUT;
const SCOPES = 'PMS.portals.READ,PMSFiles.files.READ';
const ACCESS_CODE = 'bench backup access code';
/** The emulator's generation time (packages/emulator/src/backup/exportRules.ts), and a second. */
const PAST_GENERATION_MS = 2 * 60_000 + 1000;
/** The first download waits while the emulator builds the archive: longer than the idle limit. */
const BUILD_IDLE_MS = 30 * 60_000;

/** Timed whole downloads; `download_mb_s` is the median. */
const DOWNLOAD_RUNS = Number(process.env.BACKUP_BENCH_DOWNLOADS ?? 5);
/** BACKUP_BENCH_PROFILE=FILE: a CPU profile of the verification (.cpuprofile, Chrome DevTools). */
const PROFILE = process.env.BACKUP_BENCH_PROFILE;

const MB = 1e6;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** `global.gc` with `--expose-gc` (bench/backup.mjs sets it in NODE_OPTIONS), else V8's flag. */
function collector(): { gc: () => void; exposed: boolean } {
  const exposed = typeof globalThis.gc === 'function';
  if (exposed) return { gc: () => globalThis.gc!(), exposed };
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return { gc, exposed };
}

type Phase = 'download' | 'verify';

/** `heapUsed`, `rss` and `arrayBuffers` every 10 ms, the highest of each per phase. */
function memorySampler() {
  const peaks: Record<Phase, { heap: number; rss: number; arrayBuffers: number }> = {
    download: { heap: 0, rss: 0, arrayBuffers: 0 },
    verify: { heap: 0, rss: 0, arrayBuffers: 0 },
  };
  let phase: Phase = 'download';
  let samples = 0;
  const sample = () => {
    const memory = process.memoryUsage();
    const peak = peaks[phase];
    peak.heap = Math.max(peak.heap, memory.heapUsed);
    peak.rss = Math.max(peak.rss, memory.rss);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, memory.arrayBuffers);
    samples++;
  };
  const timer = setInterval(sample, 10);
  return {
    peaks,
    samples: () => samples,
    enter(next: Phase) {
      sample();
      phase = next;
      sample();
    },
    stop() {
      sample();
      clearInterval(timer);
    },
  };
}

it('downloads and verifies a portal backup', async () => {
  const { gc, exposed } = collector();
  // The seed gives the first portal ceil(0.6 × --records) records.
  const emulatorRecords = Math.floor(PORTAL_RECORDS / 0.6);
  const emulator = await startBenchEmulator({ records: emulatorRecords, timeScale: 1 });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-backup-'));
  try {
    const { facts } = emulator;
    const { api } = facts.dcs.us!;
    const admin = { 'X-Emulator-Admin': facts.admin_secret, 'Content-Type': 'application/json' };
    const portal = facts.portals[0]!;
    const tokens = await emulator.signIn(SCOPES);
    const authorization = { Authorization: `Bearer ${await tokens.accessToken()}` };
    const call = async (url: string, init: RequestInit) => {
      const response = await fetch(url, init);
      const body = (await response.json()) as Record<string, unknown>;
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${JSON.stringify(body)}`);
      return body;
    };
    const setFaults = (faults: unknown[]) =>
      call(`${api}/__emulator/faults`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ faults }),
      });

    // Schedule, let emulated time pass the generation, read the link from the status.
    const scheduled = await call(`${api}/api/v3/portal/${portal}/portal_export`, {
      method: 'POST',
      headers: authorization,
      body: new URLSearchParams({ access_code: ACCESS_CODE }),
    });
    const exportId = (scheduled.portal_export as { id: string }).id;
    await call(`${api}/__emulator/clock/advance`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ ms: PAST_GENERATION_MS }),
    });
    const status = await call(`${api}/api/v3/portal/${portal}/portal_export/${exportId}/status`, {
      headers: authorization,
    });
    const url = (status.portal_export as { download_url: string | null }).download_url;
    if (!url) throw new Error(`Backup ${exportId} is not completed: ${JSON.stringify(status)}`);

    // The product's one attempt, with a plain fetch where the app has its scheduler. `marks`: when
    // the answer's headers came (the first progress), when the last chunk was written (the last
    // progress) and when the attempt returned (after its fsync and close).
    let lastEtag: string | null = null;
    const attempt = async (part: string, etag: string | null, idleTimeoutMs?: number) => {
      const marks = { start: performance.now(), headers: 0, body: 0, end: 0 };
      const done = await downloadAttempt({
        url,
        part,
        etag,
        send: ({ headers, signal }) => fetch(url, { headers, signal }),
        onProgress: (progress) => {
          marks.body = performance.now();
          if (marks.headers === 0) marks.headers = marks.body;
          lastEtag = progress.etag ?? lastEtag;
        },
        ...(idleTimeoutMs ? { idleTimeoutMs } : {}),
      });
      marks.end = performance.now();
      return { done, marks };
    };

    // 1. Warm-up: the emulator builds the archive at the first download.
    const warmPart = path.join(dir, 'warm.zip.part');
    const { done: warm, marks: warmMarks } = await attempt(warmPart, null, BUILD_IDLE_MS);
    const archiveBuildS = (warmMarks.end - warmMarks.start) / 1000;
    rmSync(warmPart);

    // 2. The timed downloads (each into a fresh part file) and the verification of the last one,
    // memory sampled throughout.
    const timedPart = path.join(dir, 'timed.zip.part');
    gc();
    gc();
    const baseline = process.memoryUsage();
    const sampler = memorySampler();
    const runs: { done: Downloaded; marks: Awaited<ReturnType<typeof attempt>>['marks'] }[] = [];
    for (let run = 0; run < DOWNLOAD_RUNS; run++) {
      rmSync(timedPart, { force: true });
      runs.push(await attempt(timedPart, null));
    }
    sampler.enter('verify');
    const profiler = await startCpuProfile(PROFILE);
    let began = performance.now();
    const check: ArchiveCheck = await verifyArchive(timedPart, ACCESS_CODE);
    const verifyS = (performance.now() - began) / 1000;
    await profiler.stop();
    sampler.stop();
    const downloaded = runs[runs.length - 1]!.done;
    const bytes = downloaded.bytes;
    if (statSync(timedPart).size !== bytes) {
      throw new Error('The downloaded file has another size.');
    }
    if (runs.some((run) => run.done.sha256 !== downloaded.sha256)) {
      throw new Error('Two downloads of the same archive differ.');
    }
    const seconds = (from: number, to: number) => (to - from) / 1000;
    const downloadS = runs.map(({ marks }) => seconds(marks.start, marks.end));
    const medianRun = [...runs].sort(
      (a, b) => a.marks.end - a.marks.start - (b.marks.end - b.marks.start),
    )[Math.floor(runs.length / 2)]!.marks;

    began = performance.now();
    const digest = await fileDigest(timedPart);
    const sha256S = (performance.now() - began) / 1000;

    // 3. Cut half way by the emulator, then resumed on the same part file.
    const cutPart = path.join(dir, 'cut.zip.part');
    await setFaults([{ path: '^/__downloads/', cutBody: 1, method: 'GET' }]);
    let cutKind: string | null = null;
    lastEtag = null;
    try {
      await attempt(cutPart, null);
    } catch (error) {
      if (!(error instanceof DownloadFailure)) throw error;
      cutKind = error.kind;
    } finally {
      await setFaults([]);
    }
    const cutAt = statSync(cutPart).size;
    const cutEtag = lastEtag;
    const { done: resumed } = await attempt(cutPart, cutEtag);
    const resumedDigest = await fileDigest(cutPart);
    const resumedCheck = await verifyArchive(cutPart, ACCESS_CODE);
    const resume = {
      cut_failure: cutKind,
      cut_at_bytes: cutAt,
      cut_fraction: round(cutAt / bytes, 3),
      etag_sent: cutEtag !== null,
      resumed: resumed.resumed,
      bytes: resumed.bytes,
      sha256_match:
        resumed.sha256 === downloaded.sha256 && resumedDigest.sha256 === downloaded.sha256,
      verified_counts_match:
        JSON.stringify(resumedCheck.counts) === JSON.stringify(check.counts) &&
        resumedCheck.entries.length === check.entries.length,
    };
    const resumedOk =
      cutKind === 'network' &&
      cutAt > 0 &&
      cutAt < bytes &&
      resume.resumed &&
      resume.bytes === bytes &&
      resume.sha256_match &&
      resume.verified_counts_match;

    const { peaks } = sampler;
    const peakHeap = Math.max(peaks.download.heap, peaks.verify.heap);
    const peakRss = Math.max(peaks.download.rss, peaks.verify.rss);
    const grown = (peak: number, base: number) => round(Math.max(0, peak - base) / MB);
    const result = {
      benchmark: 'backup',
      records: check.counts?.records ?? null,
      bytes,
      download_mb_s: round(bytes / MB / seconds(medianRun.start, medianRun.end)),
      verify_mb_s: round(bytes / MB / verifyS),
      sha256_mb_s: round(digest.bytes / MB / sha256S),
      peak_heap_mb: grown(peakHeap, baseline.heapUsed),
      resumed_ok: resumedOk,
      archive_build_s: round(archiveBuildS, 2),
      download_best_mb_s: round(bytes / MB / Math.min(...downloadS)),
      download_runs_s: downloadS.map((value) => round(value, 3)),
      // The median run, split: request to headers, the body streamed to disk, fsync and close.
      download_split_ms: {
        headers: round(medianRun.headers - medianRun.start),
        body: round(medianRun.body - medianRun.headers),
        sync_close: round(medianRun.end - medianRun.body),
      },
      download_body_mb_s: round(bytes / MB / seconds(medianRun.headers, medianRun.body)),
      verify_s: round(verifyS, 3),
      verify_uncompressed_mb_s: round(
        check.entries.reduce((sum, entry) => sum + entry.bytes, 0) / MB / verifyS,
      ),
      portal_records_seeded: PORTAL_RECORDS,
      emulator_records: emulatorRecords,
      counts: check.counts && {
        records: check.counts.records,
        listed_records: Object.values(check.counts.recordsByModule).reduce((a, b) => a + b, 0),
        comments: check.counts.comments,
        modules: check.counts.modules,
      },
      entries: Object.fromEntries(
        check.entries.map((entry) => [entry.name, { bytes: entry.bytes, items: entry.items }]),
      ),
      uncompressed_mb: round(check.entries.reduce((sum, entry) => sum + entry.bytes, 0) / MB),
      same_archive_as_warm_up: warm.sha256 === downloaded.sha256,
      heap: {
        baseline_mb: round(baseline.heapUsed / MB),
        peak_download_mb: grown(peaks.download.heap, baseline.heapUsed),
        peak_verify_mb: grown(peaks.verify.heap, baseline.heapUsed),
      },
      rss: {
        baseline_mb: round(baseline.rss / MB),
        peak_growth_mb: grown(peakRss, baseline.rss),
      },
      array_buffers: {
        baseline_mb: round(baseline.arrayBuffers / MB),
        peak_growth_mb: grown(
          Math.max(peaks.download.arrayBuffers, peaks.verify.arrayBuffers),
          baseline.arrayBuffers,
        ),
      },
      memory_samples: sampler.samples(),
      resume,
      targets: { download_mb_s: 100, verify_mb_s: 50, peak_heap_mb: 100 },
      scheduler: false,
      gc: exposed ? 'expose-gc' : 'v8 flag',
      emulator_startup_ms: Math.round(emulator.startupMs),
      notes:
        'The emulator runs in its own process (out/main/emulator.js) and holds the archive there, ' +
        'so the heap and RSS figures are the downloading and verifying process alone, growth over ' +
        'a baseline taken after a full GC just before the timed downloads; vitest’s worker is ' +
        'part of that baseline. send is a plain fetch, not the request scheduler. The warm-up ' +
        '(archive_build_s) is the emulator building the archive at its first download plus that ' +
        'download. MB = 10^6 bytes; files in the OS temporary directory.',
    };
    const line = JSON.stringify(result);
    if (OUT) writeFileSync(OUT, line);
    else console.log(line);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    emulator.stop();
  }
});
