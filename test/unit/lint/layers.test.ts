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

tester.run('portaldesk/layers', layersRule, {
  valid: [
    { filename: src('shared/contract.ts'), code: "import { z } from 'zod'; import './settings';" },
    { filename: src('main/engine.ts'), code: "import { x } from '../shared/contract';" },
    { filename: src('main/appIdentity.ts'), code: "import { version } from '../../package.json';" },
    { filename: src('main/engine.ts'), code: "import fs from 'node:fs'; import 'electron';" },
    { filename: src('renderer/src/a.ts'), code: "import { createApi } from '../../shared/api';" },
    {
      filename: src('preload/index.ts'),
      code: "import type { Bridge } from '../shared/contract';",
    },
    { filename: src('preload/index.ts'), code: "import { contextBridge } from 'electron';" },
    { filename: src('emulator/server.ts'), code: "import { x } from '../shared/filter';" },
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
      filename: src('shared/contract.ts'),
      code: "import { Store } from '../main/store/store';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('shared/util.ts'),
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
      code: "const m = import('../../emulator/server');",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('preload/index.ts'),
      code: "import { requests } from '../shared/contract';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('preload/index.ts'),
      code: "import { type Bridge, requests } from '../shared/contract';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: src('emulator/server.ts'),
      code: "import { Store } from '../main/store/store';",
      errors: [{ messageId: 'layer' }],
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
