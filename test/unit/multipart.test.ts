/** The multipart/form-data parser (src/http/multipart.ts) on bodies as real clients encode them. */
import { describe, expect, it } from 'vitest';
import { boundaryOf, dispositionParams, MultipartError, parseMultipart } from '../../src/http/multipart.js';

const CT = 'multipart/form-data; boundary=XyZ';
const body = (...lines: Array<string | Buffer>) =>
  Buffer.concat(lines.map((l) => (typeof l === 'string' ? Buffer.from(l, 'utf8') : l)));

describe('parseMultipart', () => {
  it('splits text fields and files, keeping binary bytes exactly (CR, LF and dashes inside)', () => {
    const bytes = Buffer.from([0x89, 0x0d, 0x0a, 0x2d, 0x2d, 0x58, 0x79, 0x00, 0xff, 0x0d, 0x0a]);
    const parsed = parseMultipart(
      body(
        '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nRack photo\r\n',
        '--XyZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n',
        bytes,
        '\r\n--XyZ--\r\n',
      ),
      CT,
    );
    expect(parsed.fields).toEqual({ name: 'Rack photo' });
    const file = parsed.files.get('image')!;
    expect(file.filename).toBe('a.png');
    expect(file.contentType).toBe('image/png');
    expect(file.data.equals(bytes)).toBe(true);
  });

  it('finds the first delimiter after a preamble as long as the boundary line', () => {
    const parsed = parseMultipart(
      body('12345\r\n--XyZ\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--XyZ--'),
      CT,
    );
    expect(parsed.fields).toEqual({ x: '1' });
  });

  it('takes a preamble, an epilogue, a quoted boundary and keeps the last of repeated fields', () => {
    const parsed = parseMultipart(
      body(
        'ignored preamble\r\n--a b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--a b\r\nContent-Disposition: form-data; name="x"\r\n\r\n2\r\n--a b--\r\nepilogue',
      ),
      'multipart/form-data; boundary="a b"',
    );
    expect(parsed.fields).toEqual({ x: '2' });
  });

  it('reads UTF-8 values and file names in every encoding clients use', () => {
    const parsed = parseMultipart(
      body(
        '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nZürich\r\n',
        '--XyZ\r\nContent-Disposition: form-data; name="a"; filename="sa\\"y.png"\r\n\r\n1\r\n', // curl
        '--XyZ\r\nContent-Disposition: form-data; name="b"; filename="sa%22y.png"\r\n\r\n2\r\n', // HTML5 / urllib3 2
        '--XyZ\r\nContent-Disposition: form-data; name="c"; filename*=UTF-8\'\'Z%C3%BCrich.png\r\n\r\n3\r\n', // RFC 5987
        '--XyZ--',
      ),
      CT,
    );
    expect(parsed.fields.name).toBe('Zürich');
    expect([...parsed.files.values()].map((f) => f.filename)).toEqual(['sa"y.png', 'sa"y.png', 'Zürich.png']);
  });

  it('skips a file input left empty (no file name, no bytes), as Django does', () => {
    const parsed = parseMultipart(
      body('--XyZ\r\nContent-Disposition: form-data; name="image"; filename=""\r\n\r\n\r\n--XyZ--'),
      CT,
    );
    expect(parsed.files.size).toBe(0);
  });

  it.each([
    ['no boundary in the header', body('--XyZ--'), 'multipart/form-data'],
    ['no boundary in the body', body('hello'), CT],
    ['a body ending inside a part', body('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end'), CT],
    ['a part without headers end', body('--XyZ\r\nContent-Disposition: form-data; name="a"'), CT],
    ['a part without a name', body('--XyZ\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XyZ--'), CT],
    [
      'a part that is not form-data',
      body('--XyZ\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--XyZ--'),
      CT,
    ],
    ['a malformed header line', body('--XyZ\r\nnonsense\r\n\r\nx\r\n--XyZ--'), CT],
    [
      'invalid UTF-8 in a text field',
      body('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n', Buffer.from([0xff, 0xfe]), '\r\n--XyZ--'),
      CT,
    ],
    ['garbage after a delimiter', body('--XyZjunk\r\n'), CT],
  ])('refuses %s', (_what, raw, ct) => {
    expect(() => parseMultipart(raw, ct)).toThrow(MultipartError);
  });
});

describe('headers', () => {
  it('reads the boundary, quoted or not', () => {
    expect(boundaryOf('multipart/form-data; boundary=----abc')).toBe('----abc');
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="x y"')).toBe('x y');
    expect(boundaryOf('multipart/form-data')).toBeNull();
  });

  it('reads Content-Disposition parameters, names case-insensitively', () => {
    expect(dispositionParams('form-data; NAME="a;b"; filename=plain.png')).toEqual({
      name: 'a;b',
      filename: 'plain.png',
    });
  });
});
