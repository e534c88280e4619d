import { RuleTester } from 'eslint';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import { layersRule } from '../../../eslint/layers.mjs';

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});
const src = (file: string) => path.join(process.cwd(), 'src', file);
const pkg = (file: string) => path.join(process.cwd(), 'packages', file);

tester.run('portaldesk/layers', layersRule, {
  valid: [
    {
      filename: src('shared/ipc/contract.ts'),
      code: "import { z } from 'zod'; import './settings';",
    },
    { filename: src('main/engine.ts'), code: "import { x } from '../shared/ipc/contract';" },
    {
      filename: src('shared/ipc/areas/records.ts'),
      code: "import { FILTER_LIMITS } from '@portaldesk/portal-api/filter';",
    },
    {
      filename: src('main/auth/demoService.ts'),
      code: "import { startEmulator } from '@portaldesk/emulator'; import { parseFilter } from '@portaldesk/portal-api/filter';",
    },
    {
      filename: src('renderer/src/features/filters/filterDraft.ts'),
      code: "import { checkFilter } from '@portaldesk/portal-api/filter';",
    },
    {
      filename: pkg('portal-api/src/filter/toSql.ts'),
      code: "import { z } from 'zod'; import { FilterError } from './errors'; import '../domain/entity';",
    },
    {
      filename: pkg('emulator/src/records/entityFilter.ts'),
      code: "import { parseFilter } from '@portaldesk/portal-api/filter'; import { x } from '../state'; import { createServer } from 'node:http';",
    },
    {
      filename: pkg('emulator/test/core.test.ts'),
      code: "import fc from 'fast-check'; import { startEmulator } from '../src/index';",
    },
    { filename: src('main/appIdentity.ts'), code: "import { version } from '../../package.json';" },
    { filename: src('main/engine.ts'), code: "import fs from 'node:fs'; import 'electron';" },
    {
      filename: src('renderer/src/a.ts'),
      code: "import { createApi } from '../../shared/ipc/api';",
    },
    {
      filename: src('preload/index.ts'),
      code: "import type { Bridge } from '../shared/ipc/contract';",
    },
    { filename: src('preload/index.ts'), code: "import { contextBridge } from 'electron';" },
    {
      filename: path.join(process.cwd(), 'test/unit/x.test.ts'),
      code: "import '../../src/main/engine';",
    },
    // The renderer's rooms, from the frame down.
    {
      filename: src('renderer/src/frame/App.tsx'),
      code: "import { SyncView } from '../features/sync/SyncView'; import { useShell } from '../app/ShellContext';",
    },
    {
      filename: src('renderer/src/features/sync/SyncView.tsx'),
      code: "import { EmptyState } from '../../ui/EmptyState'; import { useShell } from '../../app/ShellContext'; import { useOutbox } from '../outbox/OutboxContext';",
    },
    {
      filename: src('renderer/src/app/shellStore.ts'),
      code: "import type { ConnectionState } from '../bridge/engineLink'; import { SectionIcon } from '../ui/Icon';",
    },
    {
      filename: src('renderer/src/main.tsx'),
      code: "import { App } from './frame/App'; import { createSyncStore } from './features/sync/syncStore';",
    },
  ],
  invalid: [
    {
      filename: src('shared/ipc/contract.ts'),
      code: "import { Store } from '../../main/store/store';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('shared/ipc/contract.ts'),
      code: "import { startEmulator } from '@portaldesk/emulator';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('renderer/src/features/sync/SyncView.tsx'),
      code: "import { startEmulator } from '@portaldesk/emulator'; import type { RunningEmulator } from '@portaldesk/emulator';",
      errors: [{ messageId: 'layer' }, { messageId: 'layer' }],
    },
    {
      filename: src('main/engine.ts'),
      code: "import { parseFilter } from '../../packages/portal-api/src/filter';",
      errors: [{ messageId: 'byName' }],
    },
    {
      filename: pkg('portal-api/src/filter/toSql.ts'),
      code: "import { startEmulator } from '@portaldesk/emulator'; import fs from 'node:fs'; import Database from 'better-sqlite3';",
      errors: [{ messageId: 'layer' }, { messageId: 'package' }, { messageId: 'package' }],
    },
    {
      filename: pkg('portal-api/src/domain/entity.ts'),
      code: "import type { Settings } from '../../../../src/shared/ipc/settings';",
      errors: [{ messageId: 'leavesPackage' }],
    },
    {
      filename: pkg('emulator/src/records/entityFilter.ts'),
      code: "import { validateFieldValue } from '../../../../src/shared/fieldValues/validateFieldValue';",
      errors: [{ messageId: 'leavesPackage' }],
    },
    {
      filename: pkg('emulator/src/records/entityFilter.ts'),
      code: "import { filter } from '../../../portal-api/src/filter';",
      errors: [{ messageId: 'leavesPackage' }],
    },
    {
      filename: pkg('emulator/test/core.test.ts'),
      code: "import { Store } from '../../../src/main/store/store';",
      errors: [{ messageId: 'leavesPackage' }],
    },
    {
      filename: pkg('emulator/src/index.ts'),
      code: "import React from 'react';",
      errors: [{ messageId: 'package' }],
    },
    {
      filename: src('shared/fieldValues/util.ts'),
      code: "import fs from 'node:fs'; import path from 'path'; import { app } from 'electron';",
      errors: [{ messageId: 'package' }, { messageId: 'package' }, { messageId: 'package' }],
    },
    {
      filename: src('renderer/src/App.tsx'),
      code: "import { startEngine } from '../../main/engine';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('renderer/src/App.tsx'),
      code: "import { ipcRenderer } from 'electron'; const fs = require('fs');",
      errors: [{ messageId: 'package' }, { messageId: 'package' }],
    },
    {
      filename: src('renderer/src/App.tsx'),
      code: "const m = import('@portaldesk/emulator/http/server');",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('preload/index.ts'),
      code: "import { requests } from '../shared/ipc/contract';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('preload/index.ts'),
      code: "import { type Bridge, requests } from '../shared/ipc/contract';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: pkg('emulator/src/http/server.ts'),
      code: "import { Store } from '@portaldesk/portal-api/x'; import type { Engine } from '../../../../src/main/engine';",
      errors: [{ messageId: 'leavesPackage' }],
    },
    {
      filename: src('main/engine.ts'),
      code: "import { App } from '../renderer/src/App';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('renderer/src/features/sync/SyncView.tsx'),
      code: "import { StatusBar } from '../../frame/StatusBar';",
      errors: [{ messageId: 'room' }],
    },
    {
      filename: src('renderer/src/ui/EmptyState.tsx'),
      code: "import type { SectionId } from '../app/sections'; import { useSync } from '../features/sync/SyncContext';",
      errors: [{ messageId: 'room' }, { messageId: 'room' }],
    },
    {
      filename: src('renderer/src/app/theme.ts'),
      code: "import { useOutbox } from '../features/outbox/OutboxContext';",
      errors: [{ messageId: 'room' }],
    },
  ],
});
