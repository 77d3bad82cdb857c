// The implementation is plain JavaScript (fake-provider.mjs) so the benchmarks can load it too.
export {
  type FakeAnswer,
  type FakeProvider,
  makeTestCa,
  removeTestCa,
  type SeenRequest,
  startFakeProvider,
  type TestCa,
} from './fake-provider.mjs';
