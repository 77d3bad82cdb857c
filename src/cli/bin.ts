#!/usr/bin/env node
import { runCli } from './start.js';

runCli(process.argv);
