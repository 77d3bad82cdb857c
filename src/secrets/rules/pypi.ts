import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'pypi-upload-token',
    title: 'PyPI upload token',
    prefix: 'pypi-AgEIcHlwaS5vcmc',
    body: '[A-Za-z0-9_-]{50,300}',
    severity: 'critical',
    match: () => [fakeToken('pypi-AgEIcHlwaS5vcmc', 120, URL_SAFE)],
  }),
  prefixedToken({
    id: 'pypi-test-upload-token',
    title: 'TestPyPI upload token',
    prefix: 'pypi-AgENdGVzdC5weXBpLm9yZw',
    body: '[A-Za-z0-9_-]{50,300}',
    severity: 'medium',
    match: () => [fakeToken('pypi-AgENdGVzdC5weXBpLm9yZw', 120, URL_SAFE)],
  }),
]);
