import type { Command } from 'commander';
import { registerActionStep } from './action-step.js';
import { registerAdvisories } from './advisories.js';
import { registerAgents } from './agents.js';
import { registerAlerts } from './alerts.js';
import { registerComments } from './comments.js';
import { registerConfig } from './config.js';
import { registerDoctor } from './doctor.js';
import { registerEvals } from './evals.js';
import { registerFixComments } from './fix-comments.js';
import { registerHookStop } from './hook.js';
import { registerInit } from './init.js';
import { registerInstall } from './install.js';
import { registerLog } from './log.js';
import { registerMcp } from './mcp.js';
import { registerPolicy } from './policy.js';
import { registerRun } from './run.js';
import { registerHookPreCommit, registerScan } from './scan.js';
import { registerStats } from './stats.js';
import { registerUninstall } from './uninstall.js';
import { registerValidateAlert } from './validate-alert.js';
import { registerWaive } from './waive.js';

/**
 * A command file exports `register(program)`: it declares the command's flags, summary and `Example:` lines, and
 * imports its work lazily so that `tollgate --help` stays fast.
 */
export type RegisterCommand = (program: Command) => void;

export const commands: readonly RegisterCommand[] = [
  registerRun,
  registerLog,
  registerWaive,
  registerPolicy,
  registerScan,
  registerActionStep,
  registerAgents,
  registerAdvisories,
  registerComments,
  registerFixComments,
  registerValidateAlert,
  registerAlerts,
  registerEvals,
  registerMcp,
  registerHookStop,
  registerHookPreCommit,
  registerInstall,
  registerUninstall,
  registerDoctor,
  registerStats,
  registerInit,
  registerConfig,
];
