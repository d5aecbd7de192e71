extension WebPage {
    /// `/app.css`: one column for a 360 px phone, touch targets of at least 48 px, colours of AA
    /// contrast (text 4.5:1 or more on its background) in light and dark (`prefers-color-scheme`),
    /// the ringing screen over everything, the tomato's spin.
    static let style = """
        :root {
          color-scheme: light dark;
          --bg: #fffaf0; --fg: #1f1a14; --muted: #5b5046; --card: #ffffff; --line: #d9cbb8;
          --accent: #8a4b00; --on-accent: #ffffff; --warn-bg: #fff1c2; --warn-fg: #5c3b00;
          --ring-bg: #a4001d; --ring-fg: #ffffff; --shell: #f3e3c8; --white: #fffdf7;
          --yolk-soft: #ffb300; --yolk-medium: #f59b00; --yolk-hard: #ffd54f; --core: #e08600;
          --fruit: #d7261e; --leaf: #2e7d32;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #17130f; --fg: #f4ede4; --muted: #c7b9a8; --card: #241e18; --line: #4a3f33;
            --accent: #ffb74d; --on-accent: #1f1400; --warn-bg: #4a3700; --warn-fg: #ffe7a3;
            --ring-bg: #7a0016; --ring-fg: #ffffff; --shell: #d9c3a0; --white: #f7f0e3;
          }
        }
        [hidden] { display: none !important; }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body {
          margin: 0; background: var(--bg); color: var(--fg);
          font: 18px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
        }
        main { max-width: 480px; margin: 0 auto; padding: 16px; }
        h1 { font-size: 1.5rem; line-height: 1.25; margin: 8px 0 16px; text-align: center; }
        h2 { font-size: 1.1rem; margin: 24px 0 8px; }
        code { font-size: 0.95em; background: var(--card); border: 1px solid var(--line); padding: 0 4px;
          border-radius: 4px; white-space: nowrap; }
        button, input { font: inherit; color: inherit; }
        button {
          min-height: 48px; min-width: 48px; padding: 8px 16px; border-radius: 12px; cursor: pointer;
          border: 2px solid var(--accent); background: var(--card); color: var(--fg);
        }
        button:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        button.primary { background: var(--accent); color: var(--on-accent); font-weight: 600; }
        button.quiet { border-color: var(--line); color: var(--muted); }
        input {
          width: 100%; min-height: 48px; padding: 8px 12px; border-radius: 12px; border: 2px solid var(--line);
          background: var(--card);
        }
        input::placeholder { color: var(--muted); opacity: 1; }
        label { display: block; font-weight: 600; margin: 12px 0 4px; }
        .screen .picture { display: flex; justify-content: center; margin-top: 24px; }
        #pair-form button { width: 100%; margin-top: 16px; }
        #code { font-size: 1.6rem; letter-spacing: 0.3em; text-align: center; }
        .message { background: var(--warn-bg); color: var(--warn-fg); padding: 8px 12px; border-radius: 8px; }
        .eggs { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; }
        .egg {
          display: flex; flex-direction: column; align-items: center; gap: 2px; padding: 8px 4px;
          min-height: 132px;
        }
        .egg-name { font-weight: 700; }
        .egg-time { color: var(--muted); font-variant-numeric: tabular-nums; }
        .egg-svg .shell { fill: var(--shell); }
        .egg-svg .white { fill: var(--white); stroke: var(--line); }
        .egg-svg .soft { fill: var(--yolk-soft); }
        .egg-svg .medium { fill: var(--yolk-medium); }
        .egg-svg .yolk-core { fill: var(--core); }
        .egg-svg .hard { fill: var(--yolk-hard); }
        .custom { margin-top: 16px; }
        .custom button { width: 100%; margin-top: 12px; }
        .timers { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 12px; }
        .timer { background: var(--card); border: 1px solid var(--line); border-radius: 16px; padding: 12px; }
        .timer.ringing { border: 3px solid var(--ring-bg); }
        .timer .head { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
        .timer .label { font-weight: 700; font-size: 1.1rem; overflow-wrap: anywhere; }
        .timer .where { color: var(--muted); }
        .timer .state { margin-left: auto; color: var(--muted); }
        .timer .clock { display: flex; align-items: baseline; gap: 12px; }
        .timer .left { font-size: 2rem; font-weight: 700; font-variant-numeric: tabular-nums; }
        .timer .phase { color: var(--muted); }
        .timer progress { width: 100%; height: 12px; accent-color: var(--accent); }
        .timer .actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
        .timer .actions button { flex: 1 1 auto; }
        .warning {
          background: var(--warn-bg); color: var(--warn-fg); border-radius: 8px; padding: 8px 12px; margin: 8px 0;
          font-weight: 600;
        }
        .none { color: var(--muted); }
        footer { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin-top: 32px;
          color: var(--muted); }
        .tomato { display: inline-flex; }
        .tomato-svg .fruit { fill: var(--fruit); }
        .tomato-svg .leaf { fill: var(--leaf); }
        .tomato-svg .shine { fill: #ffffff; opacity: 0.35; }
        .tomato.spin .tomato-svg { animation: spin 3s linear infinite; }
        @keyframes spin { to { transform: rotate(360deg); } }
        @media (prefers-reduced-motion: reduce) { .tomato.spin .tomato-svg { animation-duration: 12s; } }
        .ringing:not(.timer) {
          position: fixed; inset: 0; z-index: 10; background: var(--ring-bg); color: var(--ring-fg);
          display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 24px;
          text-align: center;
        }
        .ringing h1 { font-size: 2rem; overflow-wrap: anywhere; }
        .ringing .warning { max-width: 320px; }
        .bell-svg .bell-body, .bell-svg .bell-clapper { fill: var(--ring-fg); }
        .bell { animation: shake 0.8s ease-in-out infinite; }
        @keyframes shake { 0%, 100% { transform: rotate(0); } 25% { transform: rotate(12deg); }
          75% { transform: rotate(-12deg); } }
        @media (prefers-reduced-motion: reduce) { .bell { animation: none; } }
        #ring-form { display: flex; flex-direction: column; gap: 16px; width: 100%; max-width: 320px; }
        button.stop {
          min-height: 120px; font-size: 2.5rem; font-weight: 800; letter-spacing: 0.1em;
          background: var(--ring-fg); color: var(--ring-bg); border: none; border-radius: 24px;
        }
        button.snooze {
          min-height: 64px; font-size: 1.4rem; background: transparent; color: var(--ring-fg);
          border: 3px solid var(--ring-fg);
        }
        body.ringing-now main > #kitchen { visibility: hidden; }

        """
}
