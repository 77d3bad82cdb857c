import type { CheckCandidate, EcosystemFindings, ProjectFiles } from './candidate.js';

/** A `gem "name"` line of a Gemfile (comments are not lines git would run). */
function gemfileHas(gemfile: string, pattern: RegExp): string | undefined {
  for (const line of gemfile.split(/\r?\n/)) {
    const gem = /^\s*gem\s*\(?\s*["']([\w.-]+)["']/.exec(line)?.[1];
    if (gem && pattern.test(gem)) return gem;
  }
  return undefined;
}

/** Ruby: RSpec and RuboCop from the Gemfile, run through Bundler; else the Rakefile's test task. */
export function rubyChecks(files: ProjectFiles): EcosystemFindings {
  const gemfile = files.get('Gemfile');
  const rakefile = files.get('Rakefile');
  const candidates: CheckCandidate[] = [];
  const exec = gemfile === undefined ? '' : 'bundle exec ';
  const rspec = gemfile === undefined ? undefined : gemfileHas(gemfile, /^rspec(-rails|-core)?$/);
  if (rspec) candidates.push({ kind: 'test', name: 'test', run: 'bundle exec rspec', source: `Gemfile gem ${rspec}` });
  if (rakefile !== undefined && /Rake::TestTask|\btask\s*\(?\s*[:"']test\b/.test(rakefile)) {
    candidates.push({ kind: 'test', name: 'test', run: `${exec}rake test`, source: 'Rakefile test task' });
  }
  const rubocop = gemfile === undefined ? undefined : gemfileHas(gemfile, /^rubocop$/);
  if (rubocop)
    candidates.push({ kind: 'lint', name: 'lint', run: 'bundle exec rubocop', source: 'Gemfile gem rubocop' });
  return { candidates, notes: [] };
}
