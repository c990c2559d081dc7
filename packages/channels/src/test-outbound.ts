import { outboundClient } from './outbound';

/** Tests' simulators listen on 127.0.0.1: the allowlist they pass, as an install would in OUTBOUND_ALLOW_HOSTS. */
export const LOCAL_OUTBOUND = outboundClient({ allowHosts: '127.0.0.1,localhost' });

/** The address forms found accepted: each must be refused without the allowlist. */
export const ATTACK_HOSTS = [
  '127.0.0.1',
  '[::1]',
  '0.0.0.0',
  '2130706433',
  '0x7f000001',
  '169.254.169.254',
  '[::ffff:127.0.0.1]',
  '[::7f00:1]',
  'localhost',
];
