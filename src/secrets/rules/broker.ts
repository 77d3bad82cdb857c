import { GATES } from '../generic-gates.js';
import { defineRules } from '../rule.js';
import { fakeHumanPassword, fakeToken, lazySamples } from '../sample-tokens.js';
import { isUsablePassword } from '../url-password.js';

export default defineRules([
  {
    id: 'broker-amqp-url',
    title: 'AMQP (RabbitMQ) URL with password',
    severity: 'critical',
    keywords: ['amqp://', 'amqps://'],
    gate: GATES.urlUser,
    pattern:
      /amqps?:\/\/[^\s:/@'"`<>]{0,100}:([^\s@'"`<>/]{1,200})@(?!(?:[\w-]+\.)*example\.(?:com|org|net)\b)[A-Za-z0-9[]/i,
    validate: isUsablePassword,
    samples: lazySamples(() => ({
      match: [`amqp://orders:${encodeURIComponent(fakeHumanPassword())}@rabbit.internal:5672/vhost`],
      ignore: ['amqp://guest:guest@localhost:5672/', `amqp://orders:\${RABBIT_PASSWORD}@rabbit.internal`],
    })),
  },
  {
    id: 'broker-mqtt-url',
    title: 'MQTT / NATS / Kafka URL with password',
    severity: 'high',
    keywords: ['mqtt://', 'mqtts://', 'nats://', 'kafka://', 'stomp://'],
    gate: GATES.urlUser,
    pattern:
      /(?:mqtts?|nats|kafka|stomp):\/\/[^\s:/@'"`<>]{0,100}:([^\s@'"`<>/]{1,200})@(?!(?:[\w-]+\.)*example\.(?:com|org|net)\b)[A-Za-z0-9[]/i,
    validate: isUsablePassword,
    samples: lazySamples(() => ({
      match: [`mqtt://sensor:${fakeToken('', 20)}@broker.internal:1883`],
      ignore: ['mqtt://user:pass@broker'],
    })),
  },
]);
