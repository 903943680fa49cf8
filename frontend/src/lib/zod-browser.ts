import { z } from 'zod/v4';

// The frontend's build resolves `zod` here, so that zod is configured before any schema of any
// chunk parses, and only on the pages that load zod at all. In browsers it parses without
// compiling code at run time: its probe for `new Function` is a Content-Security-Policy violation
// (the policy allows no eval), and the speed it buys matters only on the server.
z.config({ jitless: true });

export * from 'zod/v4';
