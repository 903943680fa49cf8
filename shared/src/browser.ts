import { z } from 'zod';

// In browsers, zod parses without compiling code at run time: its probe for `new Function` is a
// Content-Security-Policy violation on every page (the policy allows no eval), and the speed it
// buys matters only on the server.
z.config({ jitless: true });
