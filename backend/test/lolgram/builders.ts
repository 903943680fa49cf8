import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createSignInMessage } from '@solana/wallet-standard-util';
import type { LolgramUser, SignInInput, SignInProof } from '@tapgram/shared';
import bs58 from 'bs58';
import sharp from 'sharp';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';

export interface Account {
  agent: TestAgent;
  user: LolgramUser;
  password: string;
  /** The session cookie the sign-up set ("lg_session=..."), for a client other than the agent. */
  cookie: string;
}

/** The session cookie an answer sets, as a Cookie header sends it. */
export function sessionCookieOf(res: { headers: Record<string, unknown> }): string {
  const set = res.headers['set-cookie'];
  const cookies = (Array.isArray(set) ? set : [String(set)]) as string[];
  const session = cookies.find((cookie) => cookie.startsWith('lg_session='));
  if (!session) throw new Error('no session cookie set');
  return session.split(';')[0];
}

export function makeName(prefix = 'u'): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** Signs up through the API; the agent keeps the session cookie like a browser. */
export async function makeAccount(url: string, username = makeName()): Promise<Account> {
  const agent = request.agent(url);
  const password = 'correct horse battery';
  const res = await agent.post('/api/lolgram/users/create').send({ username, password });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return { agent, user: res.body, password, cookie: sessionCookieOf(res) };
}

export async function makeJpeg(
  options: { width?: number; height?: number; gps?: boolean } = {},
): Promise<Buffer> {
  const image = sharp({
    create: {
      width: options.width ?? 640,
      height: options.height ?? 480,
      channels: 3,
      background: { r: 250, g: 190, b: 40 },
    },
  }).jpeg();
  if (options.gps) {
    image.withExif({
      IFD0: { Make: 'TestCam', Model: 'Leaky 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    });
  }
  return image.toBuffer();
}

/**
 * An RGBA PNG of one colour: a few hundred kB however many pixels it declares. Interlaced (Adam7),
 * its decoder must hold every pixel at once; 16-bit, each pixel takes twice the bytes.
 */
export function makePng(
  width: number,
  height: number,
  options: { interlaced?: boolean; sixteenBit?: boolean } = {},
): Promise<Buffer> {
  const image = sharp({
    create: { width, height, channels: 4, background: { r: 250, g: 190, b: 40, alpha: 0.5 } },
  });
  if (options.sixteenBit) image.toColourspace('rgb16');
  return image.png({ compressionLevel: 9, progressive: options.interlaced ?? false }).toBuffer();
}

export function makePost(account: Account, image: Buffer, fields: Record<string, string> = {}) {
  const req = account.agent
    .post('/api/lolgram/posts')
    .field('caption', fields.caption ?? 'when the build passes on the first try')
    .field('userId', fields.userId ?? account.user.id)
    .attach('image', image, { filename: 'post.jpg', contentType: 'image/jpeg' });
  return fields.location ? req.field('location', fields.location) : req;
}

/** A wallet with a real ed25519 key, signing Sign-In With Solana messages. */
export class TestWallet {
  readonly address: string;
  private readonly privateKey: KeyObject;
  private readonly publicKey: Buffer;

  constructor() {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    this.privateKey = privateKey;
    this.publicKey = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
    this.address = bs58.encode(this.publicKey);
  }

  sign(input: SignInInput, tamper: Partial<SignInInput> = {}): SignInProof {
    const signed = { ...input, ...tamper };
    const message = Buffer.from(createSignInMessage(signed));
    return {
      input: signed,
      output: {
        publicKey: this.publicKey.toString('base64'),
        signedMessage: message.toString('base64'),
        signature: sign(null, message, this.privateKey).toString('base64'),
      },
    };
  }
}

/** A fresh wallet and its signed answer to a sign-in request the server issued for it. */
export async function signInProof(url: string): Promise<SignInProof> {
  const wallet = new TestWallet();
  const input = (
    await request(url).post('/api/lolgram/auth/wallet/nonce').send({ address: wallet.address })
  ).body as SignInInput;
  return wallet.sign(input);
}
