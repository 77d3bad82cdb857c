import { shannonEntropy } from '../entropy.js';
import { isPlaceholder } from '../placeholders.js';
import { defineRules } from '../rule.js';
import { BASE64, fakeHex, fakeToken, LOWER_ALPHANUMERIC, lazySamples } from '../sample-tokens.js';

/**
 * Framework credential files: the keys a web framework signs sessions and encrypts cookies with. Whoever has one can
 * forge sessions (and in Rails and Laravel often run code). Each has a name and a shape the framework generates.
 */

/** A generated value, not a stand-in: no placeholder word, no run, enough variety. */
function generated(value: string): boolean {
  return !isPlaceholder(value) && shannonEntropy(value) >= 3.2;
}

/** WordPress' `wp-config.php` keys and salts: 64 printable characters from https://api.wordpress.org/secret-key/1.1/salt/. */
function wordpressSalt(value: string): boolean {
  // The shipped default is the phrase "put your unique phrase here".
  // Real salts hold `<`, `>`, `{`, `}` and `...`, which the general placeholder check reads as a stand-in.
  if (/^[A-Za-z ]+$/.test(value) || /unique phrase|example|changeme|your[-_ ]|x{6}|(.)\1{5}/i.test(value)) return false;
  return shannonEntropy(value) >= 4;
}

/** Laravel's APP_KEY: `base64:` and 32 random bytes. */
function laravelKey(value: string): boolean {
  return Buffer.from(value, 'base64').length === 32 && generated(value);
}

const wordpressValue = (seed: string) =>
  fakeToken('', 64, `${BASE64}!#%&()*,-.:;<>?@[]^_{}~`, seed).replace(/['"\\$]/g, '');

export default defineRules([
  {
    id: 'framework-wordpress-salt',
    title: "WordPress authentication key or salt (define('AUTH_KEY', …))",
    severity: 'high',
    keywords: ['auth_key', 'auth_salt', 'logged_in_key', 'logged_in_salt', 'nonce_key', 'nonce_salt'],
    pattern:
      /define\([ \t]*["'](?:SECURE_AUTH|AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)["'][ \t]*,[ \t]*(?:'(?<secretSingle>[^'\r\n]{16,200})'|"(?<secretQuoted>[^"\r\n]{16,200})")/,
    validate: wordpressSalt,
    samples: lazySamples(() => ({
      match: [wordpressValue('wp-salt-1'), wordpressValue('wp-salt-2')],
      ignore: ['put your unique phrase here', 'xxxxxxxxxxxxxxxxxxxxxxxx', 'your-auth-key-goes-here-please'],
      contexts: [
        {
          name: 'wp-config.php aligned',
          path: 'wp-config.php',
          render: (v) => `<?php\ndefine('AUTH_KEY',         '${v}');\n`,
        },
        {
          name: 'wp-config.php spaced',
          path: 'public/wp-config.php',
          render: (v) => `<?php\ndefine( 'SECURE_AUTH_SALT', '${v}' );\n`,
        },
      ],
    })),
  },
  {
    id: 'framework-rails-secret-key-base',
    title: 'Rails secret_key_base',
    severity: 'high',
    keywords: ['secret_key_base'],
    pattern: /secret_key_base["']?[ \t]*(?:=>|[:=])[ \t]*["']?(?<secret>[0-9a-f]{64,256})(?![0-9A-Za-z])/i,
    validate: generated,
    samples: lazySamples(() => ({
      match: [fakeHex(128, 'rails-skb-1'), fakeHex(64, 'rails-skb-2')],
      ignore: ['0'.repeat(128), '<%= ENV["SECRET_KEY_BASE"] %>'],
      contexts: [
        { name: 'secrets.yml', path: 'config/secrets.yml', render: (v) => `production:\n  secret_key_base: ${v}\n` },
        { name: '.env', path: '.env', render: (v) => `SECRET_KEY_BASE=${v}\n` },
        {
          name: 'initializer',
          path: 'config/environments/production.rb',
          render: (v) => `Rails.application.configure do\n  config.secret_key_base = "${v}"\nend\n`,
        },
      ],
    })),
  },
  {
    id: 'framework-laravel-app-key',
    title: 'Laravel APP_KEY (base64:…)',
    severity: 'high',
    keywords: ['app_key'],
    pattern: /APP_KEY(?:["']?[ \t]*(?:=>|[:=])|"[ \t]+value=)[ \t]*["']?base64:(?<secret>[A-Za-z0-9+/]{43}=)/i,
    validate: laravelKey,
    samples: lazySamples(() => ({
      match: [
        `${fakeToken('', 43, BASE64, 'laravel-1').slice(0, 42)}A=`,
        `${fakeToken('', 43, BASE64, 'laravel-2').slice(0, 42)}E=`,
      ],
      ignore: [`${'A'.repeat(43)}=`, `${'0'.repeat(42)}A=`],
      contexts: [
        { name: '.env', path: '.env', render: (v) => `APP_NAME=Shop\nAPP_KEY=base64:${v}\n` },
        { name: 'phpunit.xml', path: 'phpunit.xml', render: (v) => `<env name="APP_KEY" value="base64:${v}"/>\n` },
      ],
    })),
  },
  {
    id: 'framework-symfony-app-secret',
    title: 'Symfony APP_SECRET',
    severity: 'high',
    keywords: ['app_secret'],
    pattern: /APP_SECRET["']?[ \t]*[:=][ \t]*["']?(?<secret>[0-9a-f]{32,64})(?![0-9A-Za-z])/i,
    validate: generated,
    samples: lazySamples(() => ({
      match: [fakeHex(32, 'symfony-1'), fakeHex(40, 'symfony-2')],
      ignore: ['0'.repeat(32), '%env(APP_SECRET)%'],
      contexts: [
        { name: '.env', path: '.env', render: (v) => `APP_ENV=prod\nAPP_SECRET=${v}\n` },
        { name: '.env.local', path: '.env.local', render: (v) => `APP_SECRET="${v}"\n` },
      ],
    })),
  },
  {
    id: 'framework-django-secret-key',
    title: 'Django SECRET_KEY in settings',
    severity: 'high',
    keywords: ['secret_key'],
    onlyPaths: /(?:^|\/)settings(?:[_.-]\w+)?(?:\/\w+)?\.py$|(?:^|\/)settings\/[\w.-]+\.py$/,
    pattern:
      /(?<![\w.])SECRET_KEY[ \t]*=[ \t]*(?:'(?<secretSingle>[^'\r\n]{32,120})'|"(?<secretQuoted>[^"\r\n]{32,120})")/,
    validate: (value) => generated(value.replace(/^django-insecure-/, '')),
    samples: lazySamples(() => ({
      match: [
        `django-insecure-${fakeToken('', 50, `${LOWER_ALPHANUMERIC}!@#%^&*(-_=+)`, 'django-1')}`,
        fakeToken('', 50, `${LOWER_ALPHANUMERIC}!@#%^&*(-_=+)`, 'django-2'),
      ],
      ignore: ["os.environ['DJANGO_SECRET_KEY']", 'django-insecure-changeme-changeme-changeme-changeme'],
      contexts: [
        { name: 'settings.py', path: 'mysite/settings.py', render: (v) => `DEBUG = False\nSECRET_KEY = '${v}'\n` },
        { name: 'settings package', path: 'mysite/settings/production.py', render: (v) => `SECRET_KEY = "${v}"\n` },
      ],
    })),
  },
]);
