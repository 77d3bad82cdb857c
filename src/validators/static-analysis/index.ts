import { z } from 'zod';
import { defineTool } from '../../core/pipeline/tool.js';
import { staticAnalysisOptionsSchema } from './options.js';

export const staticAnalysisTool = defineTool({
  name: 'static_analysis',
  title: 'Static analysis (SARIF)',
  description:
    "Runs the project's analyzers (CodeQL and Semgrep when installed, the project's ESLint, and any `static_analysis.analyzers` " +
    'command that writes SARIF) and reports only their results on the changed lines. Call it before declaring a code change ' +
    'done. Documentation-only changes are trivial for it; any change to source, workflows or build files never is.',
  aliases: ['sarif'],
  configKey: 'static_analysis',
  optionsSchema: staticAnalysisOptionsSchema,
  inputSchema: z.object({}).strict(),
  permissions: ['runCommands'],
  enabledByDefault: true,
  run: async (ctx) => (await import('./run-static-analysis.js')).runStaticAnalysis(ctx),
});
