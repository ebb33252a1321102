"""The /admin surface: bearer-token JSON API and server-rendered pages (sign-in, status cards,
tool catalog, traces, actors, Ask Clara)."""
