// bananaqr's page: a live preview of the code the form describes, made by this service's own
// API (POST /api/qr-code, so that Wi-Fi passwords and contacts never go into a URL), a sample
// code before anything is typed, downloads, a print-size helper, a link to a public code's
// settings (in the fragment), and the API's errors shown beside the field they concern. No
// framework, no build step, no request to anyone but this service.
// One file of over 400 lines on purpose: the page loads it in one request, with no build step or
// module graph; its sections (reading the form, the live preview and its sample, reading an
// SVG answer, errors, downloads and copies, printing, the settings link, the controls) are
// marked by rules below.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  // The pause after the last keystroke before the preview asks for a code: at least
  // DEBOUNCE_MS, and twice the typist's own recent gap between keys (up to PAUSE_MAX_MS), so that
  // a slow typist is not sent a code, and charged one, for every letter.
  const DEBOUNCE_MS = 300;
  const PAUSE_MAX_MS = 1200;
  const GAP_FORGOTTEN_MS = 2000; // a longer gap is a stop, not the pace of typing
  const API = '/api/qr-code';
  // A URL's scheme and nothing after it but slashes (RFC 3986 3.1: a letter, then letters,
  // digits, "+", "-" or ".").
  const SCHEME_ONLY = /^[A-Za-z][A-Za-z0-9+.-]*:\/{0,3}$/;
  // The request's rules are the service's own: the server fills them into the page (the
  // inputs' default values, the text limit on its counter, the private types on the form), so
  // the script holds no copy of them.
  const MAX_TEXT = Number(document.getElementById('text-text-count').dataset.max);
  const PRIVATE_TYPES = document.getElementById('qr-form').dataset.private.split(' ');
  const WARNINGS = JSON.parse(document.getElementById('qr-form').dataset.warnings);
  // The style fields a type's standard fixes, with their values and why, as the server's
  // FixedStyles says: { epc: { style: { logo: 'none', ecc: 'M' }, why: '…' } }.
  const FIXED = JSON.parse(document.getElementById('qr-form').dataset.fixed);

  // The payload types: what the page calls them and what the empty preview asks for; the
  // private ones (PRIVATE_TYPES) are never echoed and never in a URL.
  const TYPES = {
    url: { label: 'Link', article: 'a link', prompt: 'Type a link to see its code.' },
    text: { label: 'Text', article: 'a text', prompt: 'Type some text to see its code.' },
    wifi: { label: 'Wi-Fi network', article: 'a Wi-Fi network', prompt: 'Fill in the network name and password to see the code.', secret: 'The network name and password are' },
    vcard: { label: 'Contact (vCard)', article: 'a contact card', prompt: 'Type the contact’s name to see the code.', secret: 'The contact’s details are' },
    email: { label: 'E-mail', article: 'an e-mail', prompt: 'Type the address to write to, to see the code.', secret: 'The address and the message are' },
    sms: { label: 'SMS', article: 'a text message', prompt: 'Type the phone number to see the code.', secret: 'The number and the message are' },
    tel: { label: 'Phone number', article: 'a phone number', prompt: 'Type the phone number to see the code.', secret: 'The number’s digits are' },
    geo: { label: 'Location', article: 'a location', prompt: 'Fill in the latitude and longitude to see the code.', secret: 'The coordinates are' },
    event: { label: 'Calendar event', article: 'a calendar event', prompt: 'Type the event’s title and when it starts to see the code.', secret: 'The event’s details are' },
    epc: { label: 'SEPA payment (EPC)', article: 'a SEPA payment', prompt: 'Type the payee and the IBAN to see the code.', secret: 'The payee, the IBAN and the payment’s details are' },
    swissqr: { label: 'Swiss QR-bill', article: 'a Swiss QR-bill', prompt: 'Fill in the payee, the IBAN and the payee’s postal code, town and country to see the code.', secret: 'The payee, the IBAN, the addresses and the bill’s details are' },
    emvco: { label: 'EMV merchant payment', article: 'a merchant payment', prompt: 'Fill in the Pix key, the merchant and the city to see the code.', secret: 'The merchant’s key, name and the payment’s details are' },
    upi: { label: 'UPI payment', article: 'a UPI payment', prompt: 'Type the UPI id and the payee to see the code.', secret: 'The UPI id, the payee and the payment’s details are' },
    spayd: { label: 'Czech payment (SPAYD)', article: 'a Czech payment', prompt: 'Type the IBAN to see the code.', secret: 'The IBAN, the payee and the payment’s details are' },
    bitcoin: { label: 'Bitcoin payment', article: 'a bitcoin payment', prompt: 'Type a bitcoin address or a Lightning invoice to see the code.', secret: 'The address, the invoice and the payment’s details are' },
  };

  // The downloads, each a button #download-<format>: the images, and the print files (PDF and
  // EPS: size pixels at 300 dpi).
  const DOWNLOADS = ['png', 'svg', 'pdf', 'eps'];
  const PRINT_DPI = 300;

  // The style fields (the controls marked data-style) and the older names of payload fields
  // (filled in by the server), to find the control an error names.
  const STYLE_FIELDS = [...new Set([...document.querySelectorAll('[data-style]')].map((el) => el.dataset.style))];
  const ALIASES = JSON.parse(document.getElementById('qr-form').dataset.aliases);

  // The sample: until the user types into the form's content, the preview shows the code of the
  // Link field's placeholder, asked for like any other code (one request on load).
  const SAMPLE_URL = $('url-url').placeholder;

  const form = $('qr-form');
  const preview = $('preview');
  const statusEl = $('status');
  const frame = $('qr-frame');
  const img = $('preview-img');
  const announcer = $('announcer');

  const state = {
    timer: 0,
    controller: null,
    seq: 0,
    shownKey: null, // the request (JSON) whose code is shown
    pendingKey: null, // the request (JSON) in flight
    shown: null, // what readAnswer read of the code on show, for the print helper
    imageURL: null, // the blob: URL of the preview
    cooldownUntil: 0,
    cooldownTimer: 0,
    typed: false, // the user has typed into the form's content: no more sample
    sampleWait: null, // a refused sample's Retry-After: { until, err, status }
    contrastController: null, // the GET /api/contrast in flight
    cache: new Map(), // request → readAnswer's reading, the last few, so that going back costs no request
    styleBeforeFixed: {}, // the style values chosen before a type that fixes them locked them, by field
    started: false, // the form has been read from the settings link, if any
    keys: [], // the times of the last few inputs, for the typist's pace (typingPause)
    frameInView: null, // whether half the preview's frame is on screen (IntersectionObserver)
    panelType: 'url', // the type whose panel shows (showPanel)
    payments: null, // the payment types' panels on their way or in the page (loadPayments)
  };

  // ---------------------------------------------------------------------------------------
  // Reading the form

  // currentType returns the type chosen in the picker, once its panel is in the page; until then
  // (a payment type's panel on its way: loadPayments), the type whose panel shows.
  function currentType() {
    const type = form.elements.namedItem('type').value || 'url';
    return $('panel-' + type) ? type : state.panelType;
  }

  // collect returns the request the form describes (without format), the required controls
  // still empty, and the controls whose value cannot be sent as it is.
  function collect() {
    const type = currentType();
    const body = { type };
    const missing = [];
    const invalid = [];
    for (const el of $('panel-' + type).querySelectorAll('[data-field]')) {
      const name = el.dataset.field;
      if (el.type === 'radio') {
        if (el.checked) body[name] = el.value;
        continue;
      }
      if (el.type === 'checkbox') {
        if (el.checked) body[name] = true;
        continue;
      }
      if (el.disabled) continue;
      const blank = type === 'text' ? el.value === '' : el.value.trim() === '';
      if (blank && (el.hasAttribute('data-required') || el.hasAttribute('data-required-unless-open'))) missing.push(el);
      // A link's spaces around it are no part of it (the service trims them too): without them,
      // a typed space asks for no new code.
      if (!blank) body[name] = type === 'url' ? el.value.trim() : el.value;
    }
    if (type === 'wifi' && body.security === 'nopass') delete body.password;
    // A datetime-local input has no zone, and the service refuses a time without one (it would
    // "float" into the zone of whichever phone reads it): the browser's offset is added.
    if (type === 'event' && !$('event-all-day').checked) {
      for (const name of ['start', 'end']) if (body[name]) body[name] = withOffset(body[name].trim());
    }

    body.color = $('style-color').value.trim();
    body.background = $('style-background').value.trim();
    const size = $('style-size');
    if (size.value === '' || !Number.isFinite(Number(size.value))) {
      invalid.push({ el: size, message: 'Size is not a number', hint: 'Give the size as a whole number from 128 to 2048.' });
    } else {
      body.size = Number(size.value);
    }
    body.corners = form.elements.namedItem('corners').value || 'square';
    body.logo = $('style-logo').checked ? 'banana' : 'none';
    body.ecc = form.elements.namedItem('ecc').value || 'M';
    body.margin = Number($('style-margin').value);
    // The words around the code (setWords disables those a type does not take), sent when given:
    // the caption without the spaces around it, its place when not the default.
    const caption = $('style-caption');
    if (!caption.disabled && caption.value.trim()) {
      body.caption = caption.value.trim();
      const position = form.querySelector('input[name="caption_position"]:checked');
      if (!position.defaultChecked) body.caption_position = position.value;
    }
    if ($('style-show_destination').checked && !$('style-show_destination').disabled) body.show_destination = true;
    // A field the type's standard fixes (FIXED: an EPC code is level M without a logo; a Swiss
    // QR-bill's is black square modules on white too) is not sent: the service would refuse
    // any other value, and lockStyle shows why.
    for (const name of Object.keys(FIXED[type] ? FIXED[type].style : {})) delete body[name];
    return { type, body, missing, invalid };
  }

  // withOffset returns a local date-time (2026-12-24T18:00) with the browser's offset from UTC
  // on that day (2026-12-24T18:00+01:00), as RFC 3339 5.6 writes it.
  function withOffset(local) {
    const date = new Date(local);
    if (Number.isNaN(date.getTime())) return local;
    const minutes = -date.getTimezoneOffset();
    const abs = Math.abs(minutes);
    const pad = (n) => String(n).padStart(2, '0');
    return `${local}${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  }

  // ---------------------------------------------------------------------------------------
  // The live preview

  // typingPause notes an input now and returns how long to wait for the next before asking for
  // a code: twice the mean of the last three gaps between inputs, from DEBOUNCE_MS to PAUSE_MAX_MS;
  // a paste (more than a character at once) is no typing, and waits DEBOUNCE_MS.
  function typingPause(e) {
    const now = Date.now();
    if (e.inputType === 'insertFromPaste' || (typeof e.data === 'string' && [...e.data].length > 1)) {
      state.keys = [];
      return DEBOUNCE_MS;
    }
    const keys = state.keys.filter((t) => now - t < GAP_FORGOTTEN_MS * 3).slice(-3);
    keys.push(now);
    state.keys = keys;
    const gaps = [];
    for (let i = 1; i < keys.length; i++) if (keys[i] - keys[i - 1] < GAP_FORGOTTEN_MS) gaps.push(keys[i] - keys[i - 1]);
    if (!gaps.length) return DEBOUNCE_MS;
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    return Math.round(Math.min(PAUSE_MAX_MS, Math.max(DEBOUNCE_MS, 2 * mean)));
  }

  // schedule updates the preview after the user stops typing for a moment.
  function schedule(delay = DEBOUNCE_MS) {
    clearTimeout(state.timer);
    if (!cooling()) setBusy(true);
    state.timer = setTimeout(update, delay);
  }

  async function update() {
    clearTimeout(state.timer);
    if (cooling()) return; // the countdown calls update when it ends
    const { type, body: asked, missing, invalid } = collect();
    clearErrors();
    // Whatever the form says now, an answer to an earlier form must not land in the preview
    // (the request for this very form, if in flight, is kept below).
    if (invalid.length || (missing.length && !(type === 'url' && !state.typed && SAMPLE_URL !== ''))) abortPending();
    if (invalid.length) {
      for (const e of invalid) showFieldError(e.el, e.message, e.hint);
      setState('error', notUpdated(invalid[0].el));
      return;
    }
    // An empty Link field that was never typed into shows the sample, in the style chosen.
    const sample = missing.length > 0 && type === 'url' && !state.typed && SAMPLE_URL !== '';
    if (missing.length && !sample) {
      showEmpty(promptFor(type, missing));
      return;
    }
    // A scheme without a host ("https:", "https://") is a link half typed, never a code: it is
    // not asked for (the service would refuse it, and count it).
    if (type === 'url' && !sample && SCHEME_ONLY.test(asked.url)) {
      abortPending();
      showEmpty(`Keep typing: after ${asked.url} comes the address, such as example.com.`);
      return;
    }
    const body = sample ? { type, url: SAMPLE_URL, ...asked } : asked;
    const key = JSON.stringify(body);
    if (key === state.shownKey && preview.dataset.state === (sample ? 'sample' : 'ready')) {
      abortPending();
      return;
    }
    const cached = state.cache.get(key);
    if (cached) {
      abortPending();
      showResult(cached, body, key, sample);
      return;
    }
    // The very request in flight: asking again would cost a request for nothing.
    if (state.controller && state.pendingKey === key) return;
    abortPending();
    if (waitAfterSample(sample)) return;
    const controller = new AbortController();
    state.controller = controller;
    state.pendingKey = key;
    const seq = ++state.seq;
    setBusy(true);
    try {
      // The SVG alone, which is what the preview shows; what the page says about it comes from
      // the answer's X-QR-* headers (readAnswer), not from a JSON answer
      // whose Base64 PNG the page would never use.
      const res = await post({ ...body, format: 'svg' }, controller.signal);
      if (seq !== state.seq) return;
      if (!res.ok) {
        const err = await readError(res);
        if (seq !== state.seq) return;
        if (sample && (res.status === 429 || res.status === 503)) sampleRefused(res, err);
        else handleError(res, err, type); // a style the service refuses is shown on the sample too
        return;
      }
      const data = readAnswer(await res.text(), res.headers, body);
      if (seq !== state.seq) return;
      remember(key, data);
      showResult(data, body, key, sample);
    } catch (e) {
      if (e.name === 'AbortError' || seq !== state.seq) return;
      if (sample) {
        showEmpty(TYPES.url.prompt); // the user asked for nothing: no alarm until they do
        return;
      }
      showGeneralError({ title: 'Cannot reach bananaqr', message: 'The service did not answer: the connection or the server is down.', hint: 'Check the connection, then try again.', retry: true });
      setState('error', 'Not updated: cannot reach bananaqr.');
    } finally {
      if (seq === state.seq) {
        setBusy(false);
        state.controller = null;
        state.pendingKey = null;
      }
    }
  }

  function post(body, signal) {
    return fetch(API, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: body.format === 'svg' ? 'image/svg+xml' : '*/*' },
      body: JSON.stringify(body),
      signal,
      cache: 'no-store',
      credentials: 'same-origin',
    });
  }

  function abortPending() {
    state.seq++;
    if (state.controller) state.controller.abort();
    state.controller = null;
    state.pendingKey = null;
    setBusy(false);
  }

  function remember(key, data) {
    state.cache.set(key, data);
    if (state.cache.size > 24) state.cache.delete(state.cache.keys().next().value);
  }

  // sampleRefused shows the empty preview when the service refuses the sample with 429 or 503:
  // the user asked for nothing, so no countdown yet; but the Retry-After still holds (RFC 9110,
  // 10.2.3), and waitAfterSample keeps it.
  function sampleRefused(res, err) {
    state.sampleWait = { until: Date.now() + budgetWait(res) * 1000, err, status: res.status };
    showEmpty(TYPES.url.prompt);
  }

  // waitAfterSample reports whether a refused sample's Retry-After still runs, and then sends
  // nothing: a sample waits quietly; the user's own code gets the countdown, as if refused.
  function waitAfterSample(sample) {
    const wait = state.sampleWait;
    const left = wait ? Math.ceil((wait.until - Date.now()) / 1000) : 0;
    if (left <= 0) {
      state.sampleWait = null;
      return false;
    }
    if (sample) {
      showEmpty(TYPES.url.prompt);
    } else {
      state.sampleWait = null;
      startCooldown(left, wait.err, wait.status);
    }
    return true;
  }

  // endSample ends the sample at the first keystroke in the form's content, before the debounce:
  // a sample must never stand for what the user typed, nor land once they have.
  function endSample() {
    if (state.typed) return;
    state.typed = true;
    abortPending(); // until now, any request in flight was for the sample
    if (!$('sample-badge').hidden) showEmpty('Your code appears here as you type.');
  }

  function promptFor(type, missing) {
    if (type === 'wifi') {
      const names = missing.map((el) => (el.id === 'wifi-ssid' ? 'the network name' : 'the password'));
      return `Fill in ${names.join(' and ')} to see the code.`;
    }
    if (type === 'swissqr' && missing.every((el) => el.closest('#swissqr-debtor-fields'))) {
      return 'Fill in the payer’s name, postal code, town and country, or untick “Add the payer’s address”.';
    }
    if (type === 'emvco') return emvcoScheme().dataset.prompt || TYPES.emvco.prompt;
    return TYPES[type].prompt;
  }

  function setBusy(busy) {
    frame.setAttribute('aria-busy', busy ? 'true' : 'false');
  }

  // setState sets the preview's state and its status, which a screen reader announces: only
  // when the status says something new, so typing that changes nothing of note (the same type,
  // version and level) announces nothing. An error or a countdown takes the code away: nothing
  // of an earlier code may be copied, downloaded or announced as current.
  function setState(name, status) {
    preview.dataset.state = name;
    if (status !== undefined && statusEl.textContent !== status) statusEl.textContent = status;
    if (name === 'error' || name === 'limited') clearCode();
    const ready = name === 'ready';
    if (!ready && name !== 'empty' && img.hidden) {
      $('qr-empty-text').textContent = name === 'limited' ? 'Your code appears here when the countdown ends.' : 'Your code appears here once the message above is dealt with.';
    }
    for (const format of DOWNLOADS) $('download-' + format).disabled = !ready;
    showMini();
    $('copy-image').disabled = !ready;
    updatePrivacy();
    writeFragment();
  }

  // showMini shows the small copy of the code (below 900 px, by the style sheet) while the
  // user's code is ready and the preview's frame is not all in sight: on a phone the form is
  // above or below it, and half a code does not scan. A sample has none: in a corner, unmarked,
  // it would pass for the user's code.
  function showMini() {
    $('mini-preview').hidden = img.hidden || preview.dataset.state !== 'ready' || state.frameInView !== false;
  }
  // The frame is in sight when all of it is but a sliver of its padding (FRAME_SEEN).
  const FRAME_SEEN = 0.98;
  if ('IntersectionObserver' in window) {
    new IntersectionObserver((entries) => {
      state.frameInView = entries[entries.length - 1].intersectionRatio >= FRAME_SEEN;
      showMini();
    }, { threshold: [0, FRAME_SEEN] }).observe(frame);
  }

  function showEmpty(prompt) {
    clearCode();
    $('qr-empty-text').textContent = prompt;
    setState('empty', prompt);
  }

  // clearCode takes the code on show away, with everything that describes or shares it.
  function clearCode() {
    state.shownKey = null;
    state.shown = null;
    img.hidden = true;
    img.alt = '';
    img.removeAttribute('src');
    $('mini-preview-img').removeAttribute('src');
    showMini();
    if (state.imageURL) URL.revokeObjectURL(state.imageURL);
    state.imageURL = null;
    $('sample-badge').hidden = true;
    $('qr-empty').hidden = false;
    $('meta').hidden = true;
    $('warnings').hidden = true;
    $('print-help').hidden = true;
    $('share').hidden = true;
    for (const id of ['share-image-url', 'share-markdown', 'share-settings']) $(id).value = '';
    preview.dataset.payloadType = '';
  }

  // showResult shows a code: the user's, or the sample (marked so, with no link and no
  // download, since it is nobody's code).
  function showResult(data, body, key, sample = false) {
    const type = data.payload_type;
    const info = TYPES[type] || { label: type, article: 'a ' + type, private: data.payload === null };
    state.shownKey = key;

    const blobURL = URL.createObjectURL(new Blob([data.svg], { type: 'image/svg+xml' }));
    const old = state.imageURL;
    state.imageURL = blobURL;
    img.src = blobURL;
    $('mini-preview-img').src = blobURL;
    if (old) setTimeout(() => URL.revokeObjectURL(old), 1000);
    // The SVG's own text alternative: its title (the payload of a public code, the type of a
    // private one) and its description (how to use the code, and the words printed with it).
    const alt = [clip(data.title, 200), data.desc].filter(Boolean).join('. ');
    img.alt = sample ? 'Sample ' + alt : alt;
    img.hidden = false;
    showMini();
    $('sample-badge').hidden = !sample;
    $('qr-empty').hidden = true;

    $('meta-type').textContent = info.label;
    setMeta('meta-version', String(data.version), `${data.modules} × ${data.modules} modules`);
    let eccNote = `recovers about ${{ L: 7, M: 15, Q: 25, H: 30 }[data.ecc]}%`;
    if (body.ecc && body.ecc !== data.ecc) eccNote = `raised from ${body.ecc}${data.logo === 'banana' ? ' for the banana' : ' at no cost'}`;
    setMeta('meta-ecc', data.ecc || '?', data.ecc ? eccNote : 'not read from the image');
    setMeta('meta-size', `${data.size} × ${data.size} px`, `${data.module_px} px a module, quiet zone ${data.margin}`);
    const payloadRow = $('meta-payload-row');
    if (data.payload !== null) {
      $('meta-payload').textContent = clip(data.payload, 280);
      payloadRow.hidden = false;
    } else {
      payloadRow.hidden = true;
    }
    $('meta').hidden = false;

    const warnings = $('warnings');
    warnings.replaceChildren(...data.warnings.map((w) => {
      const li = document.createElement('li');
      const b = document.createElement('strong');
      b.textContent = 'Heads up: ';
      li.append(b, sentence(w.message));
      return li;
    }));
    warnings.hidden = warnings.children.length === 0;

    const share = data.payload !== null && !sample;
    $('share').hidden = !share;
    if (share) {
      const imageURL = `${location.origin}/api/qr-code.png?${publicQuery(body)}`;
      $('share-image-url').value = imageURL;
      $('share-markdown').value = `![QR code](${imageURL})`;
      $('share-settings').value = settingsLink(body);
    } else {
      for (const id of ['share-image-url', 'share-markdown', 'share-settings']) $(id).value = '';
    }
    preview.dataset.payloadType = type;
    state.shown = sample ? null : data;
    showPrintHelp();
    if (sample) setState('sample', `Sample: the code of ${data.payload}. Type a link to make your own.`);
    // The type alone: the version and the level change as the user types, and are in the list
    // above for whoever looks; a status that says the same announces nothing.
    else setState('ready', `Ready: ${info.article} code.`);
  }

  // clip shortens a long payload for display: its start, and how long it is.
  function clip(text, max) {
    const chars = [...text];
    return chars.length <= max ? text : `${chars.slice(0, max).join('')}… (${chars.length.toLocaleString('en')} characters)`;
  }

  function setMeta(id, main, sub) {
    const dd = $(id);
    const value = document.createElement('span');
    value.className = 'value';
    value.textContent = main;
    const small = document.createElement('span');
    small.className = 'sub';
    small.textContent = sub;
    dd.replaceChildren(value, small);
  }

  // ---------------------------------------------------------------------------------------
  // Reading an SVG answer

  // readAnswer returns what the page shows of a code from the service's SVG answer and its
  // X-QR-* headers: the payload type, the payload (public types only), the size, the symbol's
  // version and error correction level, and the warnings' codes.
  function readAnswer(svg, headers, body) {
    const raw = headers.get('X-QR-Payload');
    let payload = null;
    // Percent-encoded when it is not printable ASCII or has white space at an end, which a field
    // value would lose on the way (RFC 9110 5.5).
    if (raw !== null) payload = headers.get('X-QR-Payload-Encoding') === 'percent' ? decodeURIComponent(raw) : raw;
    const size = Number(headers.get('X-QR-Size')) || body.size;
    // The SVG's text alternative (its <title> and <desc>), which the preview's is.
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const said = (name) => (doc.querySelector(name) || {}).textContent || '';
    const margin = body.margin;
    const version = Number(headers.get('X-QR-Version'));
    const modules = 4 * version + 17; // ISO/IEC 18004:2015 5.3.1
    const codes = (headers.get('X-QR-Warning') || '').split(',').map((c) => c.trim()).filter(Boolean);
    return {
      payload_type: headers.get('X-QR-Payload-Type') || body.type,
      payload,
      svg,
      title: said('title'),
      desc: said('desc'),
      size,
      margin,
      modules,
      version,
      ecc: headers.get('X-QR-ECC'),
      module_px: Math.floor(size / (modules + 2 * margin)),
      logo: headers.get('X-QR-Logo') || body.logo,
      warnings: codes.map((code) => ({ code, message: warningText(code) })),
    };
  }

  // warningText words a warning the service names by its code (X-QR-Warning), as the service's
  // own list says (data-warnings, from api.WarningCodes).
  function warningText(code) {
    return WARNINGS[code] || `The service warns: ${code}.`;
  }

  // publicQuery returns the query of GET /api/qr-code.png that makes the code of a public body
  // (url or text): its content and the style fields that differ from the defaults the server
  // filled into the page.
  function publicQuery(body) {
    const q = new URLSearchParams();
    q.set(body.type, body[body.type]);
    for (const [name, value] of Object.entries(styleOf(body))) q.set(name, value);
    return q.toString();
  }

  // styleOf returns the body's style fields that differ from the page's defaults, colours
  // without their #.
  function styleOf(body) {
    const defaults = defaultStyle();
    const out = {};
    for (const name of Object.keys(defaults)) {
      if (body[name] === undefined) continue;
      const value = String(body[name]).replace(/^#/, '').toUpperCase();
      if (value !== String(defaults[name]).replace(/^#/, '').toUpperCase()) out[name] = name === 'color' || name === 'background' ? value : String(body[name]);
    }
    return out;
  }

  function defaultStyle() {
    const checked = (name) => [...form.querySelectorAll(`input[name="${name}"]`)].find((el) => el.defaultChecked)?.value;
    return {
      size: $('style-size').defaultValue,
      margin: $('style-margin').defaultValue,
      color: $('style-color').defaultValue,
      background: $('style-background').defaultValue,
      corners: checked('corners') || 'square',
      logo: $('style-logo').defaultChecked ? 'banana' : 'none',
      ecc: checked('ecc') || 'M',
      caption: $('style-caption').defaultValue,
      caption_position: checked('caption_position'),
      show_destination: String($('style-show_destination').defaultChecked),
    };
  }

  // ---------------------------------------------------------------------------------------
  // The settings link: a public code's settings in the URL's fragment (#type=url&url=…&size=…),
  // which the browser never sends to any server; never a private type's fields.

  // The public types (data-public, from package payload): url and text, whose one field has the
  // type's name.
  const PUBLIC_TYPES = document.getElementById('qr-form').dataset.public.split(' ');

  function settingsLink(body) {
    return `${location.origin}${location.pathname}#${fragmentOf(body)}`;
  }

  function fragmentOf(body) {
    const q = new URLSearchParams({ type: body.type });
    q.set(body.type, body[body.type]);
    for (const [name, value] of Object.entries(styleOf(body))) q.set(name, value);
    return q.toString();
  }

  // writeFragment keeps the address's fragment to the settings of the public code on show, and
  // empty for anything else (a private type, an error, nothing typed), without a history entry.
  function writeFragment() {
    if (!state.started) return;
    const { type, body } = collect();
    const want = preview.dataset.state === 'ready' && PUBLIC_TYPES.includes(type) && !PRIVATE_TYPES.includes(type)
      ? '#' + fragmentOf(body)
      : '';
    if (location.hash === want) return;
    // Another fragment (#use, a link within the page) is the reader's, not settings: left alone.
    if (want === '' && !new URLSearchParams(location.hash.slice(1)).has('type')) return;
    history.replaceState(null, '', location.pathname + location.search + want);
  }

  // readFragment fills the form from a settings link: a public type, its content and the style
  // fields; anything else in the fragment is ignored. It returns whether it filled anything.
  function readFragment() {
    const q = new URLSearchParams(location.hash.slice(1));
    const type = q.get('type');
    if (!PUBLIC_TYPES.includes(type) || PRIVATE_TYPES.includes(type) || !q.has(type)) return false;
    state.styleBeforeFixed = {}; // the link's style is the user's choice now, for every type
    $('type-' + type).checked = true;
    $(type === 'url' ? 'url-url' : 'text-text').value = q.get(type);
    const set = (id, value) => { if (value !== null) $(id).value = value; };
    set('style-size', q.get('size'));
    set('style-size-range', q.get('size'));
    set('style-margin', q.get('margin'));
    for (const name of ['color', 'background']) {
      const v = q.get(name);
      if (v !== null && HEX.test(v)) $('style-' + name).value = '#' + v.replace(/^#/, '').toUpperCase();
    }
    set('style-caption', q.get('caption'));
    for (const name of ['corners', 'ecc', 'caption_position']) {
      const el = q.get(name) && form.querySelector(`input[name="${name}"][value="${CSS.escape(q.get(name))}"]`);
      if (el) el.checked = true;
    }
    if (q.get('logo')) $('style-logo').checked = q.get('logo') === 'banana';
    if (q.get('show_destination')) $('style-show_destination').checked = q.get('show_destination') === 'true';
    state.typed = true;
    return true;
  }

  // ---------------------------------------------------------------------------------------
  // Printing

  // The rule of thumb for print (commonly cited printing guidance, not a standard): phone
  // cameras resolve modules down to about 0.4–0.5 mm (0.5 mm is used, to be safe), and a code
  // scans from up to about 10 times its width.
  const MIN_MODULE_MM = 0.5;
  const DISTANCE_PER_WIDTH = 10;

  // showPrintHelp tells how large the code on show prints at 300 dpi, and the smallest print
  // and the farthest scan its modules allow, as a rule of thumb.
  function showPrintHelp() {
    const el = $('print-help');
    const data = state.shown;
    const size = Number($('style-size').value);
    if (!data || !Number.isInteger(size) || size !== data.size) {
      el.hidden = true;
      return;
    }
    const mm = (size / PRINT_DPI) * 25.4;
    const across = data.modules + 2 * data.margin;
    const minMM = across * MIN_MODULE_MM;
    const cm = (v) => `${(v / 10).toFixed(1)} cm`;
    const inch = (v) => `${(v / 25.4).toFixed(2)} in`;
    const distance = (v) => (v >= 1000 ? `${(v / 1000).toFixed(1)} m` : cm(v));
    $('print-size').textContent = `${cm(mm)} × ${cm(mm)} (${inch(mm)}) at ${PRINT_DPI} dpi, a module ${((data.module_px / PRINT_DPI) * 25.4).toFixed(2)} mm.`;
    $('print-min').textContent = `At least ${cm(minMM)} (${inch(minMM)}) wide: ${across} modules with the quiet zone, at about ${MIN_MODULE_MM} mm each, which phone cameras resolve.`;
    $('print-distance').textContent = `Up to about ${distance(DISTANCE_PER_WIDTH * mm)} at this size (about ${DISTANCE_PER_WIDTH} × its width); ${distance(DISTANCE_PER_WIDTH * minMM)} at the smallest.`;
    el.hidden = false;
  }

  // The private note shows for the private types whatever the preview's state: the promise
  // holds before the first code too.
  function updatePrivacy() {
    const type = currentType();
    const priv = PRIVATE_TYPES.includes(type);
    $('private-note').hidden = !priv;
    if (priv) $('share').hidden = true;
    if (priv) {
      $('private-note-text').textContent = `${TYPES[type].secret} made into the image in memory and forgotten: nothing is stored, and they never go into a link, a header or a log. So there is no link to share: download the image instead.`;
    }
  }

  // ---------------------------------------------------------------------------------------
  // Errors

  async function readError(res) {
    let err = null;
    try {
      err = await res.json();
    } catch {
      err = null;
    }
    if (!err || typeof err.message !== 'string') {
      err = { code: 'HTTP_' + res.status, message: `the service answered ${res.status} ${res.statusText}`.trim(), hint: '' };
    }
    return err;
  }

  // handleError shows an error of the API: beside its field when one is at fault, else in the
  // general area; 429 and 503 start a countdown that retries when it ends.
  function handleError(res, err, type) {
    if (res.status === 429 || res.status === 503) {
      startCooldown(budgetWait(res), err, res.status);
      return;
    }
    const field = res.status === 400 ? errorField(err, type) : null;
    const el = field && controlFor(field, type);
    if (el && !el.closest('[hidden]')) {
      if (err.code === 'LOW_CONTRAST') markContrast(el);
      else showFieldError(el, sentence(err.message), err.hint);
      setState('error', notUpdated(el));
      return;
    }
    const titles = { 400: 'The service refused this code', 413: 'Too long for a QR code', 415: 'The request was not JSON', 422: 'This does not fit in a QR code' };
    const title = titles[res.status] || 'Something went wrong on the service’s side';
    showGeneralError({ title, message: err.message, hint: err.hint, retry: res.status >= 500 });
    setState('error', `Not updated: ${title.charAt(0).toLowerCase()}${title.slice(1)}.`);
  }

  // A refusal is said once, where its field is: the status line, which a screen reader
  // announces, only points there. notUpdated is its text for a refusal of control el.
  function notUpdated(el) {
    const label = el.labels && el.labels[0] ? el.labels[0].textContent.replace(/\([^)]*\)/g, '').trim() : '';
    return label ? `Not updated: see ${label}, which says why.` : 'Not updated: see the field that says why.';
  }

  // markContrast marks the colour refused as too faint: the contrast line under the colours,
  // which the colour field names in aria-describedby, says why and what to try (showContrast,
  // from GET /api/contrast); a second box under the field would say it again.
  function markContrast(el) {
    el.setAttribute('aria-invalid', 'true');
    el.dataset.refused = 'contrast';
    showContrast();
  }

  // errorField returns the request field an error concerns: the one an error object names
  // (field, as the batch's items do), else the one its message starts with ("password has 5
  // characters…", "iban is not…", "size 5000 is out of range…", "color #FFFFFF on
  // background…"); the code decides where the message does not.
  function errorField(err, type) {
    if (typeof err.field === 'string' && err.field && controlFor(err.field, type)) return err.field;
    const word = (/^[A-Za-z_]+/.exec(err.message || '') || [''])[0];
    if (err.code === 'LOW_CONTRAST') return 'color';
    if (word && (STYLE_FIELDS.includes(word) || ALIASES[word] || document.getElementById(`${type}-${word}`))) return word;
    const message = err.message || '';
    switch (err.code) {
      case 'INVALID_URL': return type === 'vcard' ? 'website' : 'url';
      case 'INVALID_SSID': return 'ssid';
      case 'INVALID_PASSWORD': return 'password';
      case 'INVALID_SECURITY': return 'security';
      case 'INVALID_EMAIL': return type === 'email' ? 'to' : 'email';
      case 'INVALID_PHONE': return 'phone';
      case 'INVALID_COLOR': return /background/.test(message) ? 'background' : 'color';
      case 'INVALID_VALUE': return STYLE_FIELDS.find((f) => message.includes(f)) || null;
      default: return null;
    }
  }

  function controlFor(field, type) {
    if (type === 'email' && field === 'email') field = 'to';
    if (type === 'vcard' && field === 'url') field = 'website';
    field = ALIASES[field] || field;
    if (STYLE_FIELDS.includes(field)) return $('style-' + field);
    return document.getElementById(`${type}-${field}`);
  }

  // The API's field names that are initials, as people write them.
  const INITIALS = { ssid: 'SSID', url: 'URL', iban: 'IBAN', bic: 'BIC', vpa: 'UPI id' };

  // sentence makes an API message read as a sentence: a capital, and a field name it starts
  // with as people write it (SSID, IBAN; jobTitle is "Job title", debtorPostalCode "Debtor
  // postal code", show_destination "Show destination").
  function sentence(message) {
    const s = inProse(message).replace(/^[a-z]+(?:[A-Z][a-z]*|_[a-z]+)*\b/, (word) => INITIALS[word] || word.replace(/_/g, ' ').replace(/[A-Z]/g, (c) => ' ' + c.toLowerCase()));
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  // inProse spells the API's words as the page does: its field color is the colour (the field
  // names stay the API's in requests and links).
  function inProse(text) {
    return String(text || '').replace(/\bcolor\b/g, 'colour').replace(/\bColor\b/g, 'Colour');
  }

  function showFieldError(el, message, hint) {
    const id = el.id + '-error';
    let p = $(id);
    if (!p) {
      p = document.createElement('p');
      p.id = id;
      p.className = 'field-error';
      (el.closest('.field') || el.parentElement).append(p);
    }
    const strong = document.createElement('strong');
    strong.textContent = message;
    p.replaceChildren(strong, inProse(hint));
    el.setAttribute('aria-invalid', 'true');
    const ids = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
    if (!ids.includes(id)) el.setAttribute('aria-describedby', [...ids, id].join(' '));
  }

  function clearErrors() {
    for (const p of document.querySelectorAll('.field-error')) {
      const el = $(p.id.replace(/-error$/, ''));
      if (el) {
        el.removeAttribute('aria-invalid');
        const ids = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter((x) => x && x !== p.id);
        if (ids.length) el.setAttribute('aria-describedby', ids.join(' '));
        else el.removeAttribute('aria-describedby');
      }
      p.remove();
    }
    for (const el of document.querySelectorAll('[data-refused]')) {
      el.removeAttribute('aria-invalid');
      delete el.dataset.refused;
    }
    if (!cooling()) hideGeneralError();
  }

  function showGeneralError({ title, message, hint, retry = false, countdown = '' }) {
    $('form-error-title').textContent = title;
    $('form-error-message').textContent = sentence(message);
    $('form-error-message').hidden = !message;
    $('form-error-hint').textContent = inProse(hint);
    $('form-error-hint').hidden = !hint;
    $('form-error-countdown').textContent = countdown;
    $('form-error-countdown').hidden = !countdown;
    $('form-error-retry').hidden = !retry;
    $('form-error').hidden = false;
  }

  function hideGeneralError() {
    $('form-error').hidden = true;
  }

  // retryAfter reads Retry-After: seconds, or an HTTP date; 60 when absent.
  function retryAfter(value) {
    if (value && /^\d+$/.test(value.trim())) return Math.max(1, parseInt(value, 10));
    const date = value ? Date.parse(value) : NaN;
    if (!Number.isNaN(date)) return Math.max(1, Math.ceil((date - Date.now()) / 1000));
    return 60;
  }

  // budgetWait returns the seconds until a refused request may ask again: Retry-After, or
  // sooner when the RateLimit-* headers say one code is back before then. The budget is a
  // minute's RateLimit-Limit codes, one back every 60/Limit seconds, whole again after
  // RateLimit-Reset seconds; so one code is back Reset - (Limit - 1) * 60/Limit seconds from now.
  function budgetWait(res) {
    const after = retryAfter(res.headers.get('Retry-After'));
    const limit = parseInt(res.headers.get('RateLimit-Limit') || '', 10);
    const reset = parseInt(res.headers.get('RateLimit-Reset') || '', 10);
    if (res.status !== 429 || !(limit > 0) || !(reset >= 0)) return after;
    return Math.min(after, Math.max(1, Math.ceil(reset - ((limit - 1) * 60) / limit)));
  }

  const cooling = () => state.cooldownUntil > Date.now();

  function startCooldown(seconds, err, status) {
    abortPending();
    clearInterval(state.cooldownTimer);
    state.cooldownUntil = Date.now() + seconds * 1000;
    const title = status === 429 ? 'Too many codes this minute' : 'The service is busy';
    const render = () => {
      const left = Math.max(0, Math.ceil((state.cooldownUntil - Date.now()) / 1000));
      const hint = status === 429
        ? 'The limit keeps the service free for everyone. Nothing is lost: the preview updates by itself when the countdown ends.'
        : err.hint;
      showGeneralError({ title, message: err.message, hint, countdown: `Trying again in ${left} s…` });
      return left;
    };
    render();
    setState('limited', `${title}. The preview tries again by itself in ${seconds} second${seconds === 1 ? '' : 's'}, when the limit allows.`);
    state.cooldownTimer = setInterval(() => {
      if (render() > 0) return;
      clearInterval(state.cooldownTimer);
      state.cooldownUntil = 0;
      hideGeneralError();
      update();
    }, 1000);
  }

  // ---------------------------------------------------------------------------------------
  // Downloads and copies

  async function download(format, button) {
    if (cooling()) return;
    const { body, missing, invalid } = collect();
    if (missing.length || invalid.length) return;
    button.disabled = true;
    try {
      const res = await post({ ...body, format, download: true });
      if (!res.ok) {
        handleError(res, await readError(res), body.type);
        return;
      }
      const blob = await res.blob();
      const name = filename(res.headers.get('Content-Disposition')) || `qr-${body.type}.${format}`;
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.hidden = true;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30000);
      announce(`Saved ${name}.`);
    } catch {
      showGeneralError({ title: 'Cannot reach bananaqr', message: 'The download failed: the service did not answer.', hint: 'Check the connection, then try again.' });
    } finally {
      button.disabled = preview.dataset.state !== 'ready';
    }
  }

  // filename reads the filename of a Content-Disposition header, keeping it to a safe name.
  function filename(header) {
    const m = /filename="?([^";]+)"?/i.exec(header || '');
    if (!m) return '';
    const name = m[1].replace(/[^\w.-]/g, '_');
    return name && !name.startsWith('.') ? name : '';
  }

  async function copy(button) {
    const source = $(button.dataset.copy);
    const text = 'value' in source ? source.value : source.textContent;
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      // Not a secure context (plain HTTP on another host), or no permission: select and copy.
      const ta = document.createElement('textarea');
      ta.value = text;
      ta.setAttribute('readonly', '');
      ta.className = 'sr-only';
      document.body.append(ta);
      ta.select();
      try {
        ok = document.execCommand('copy');
      } catch {
        ok = false;
      }
      ta.remove();
    }
    const label = button.querySelector('.copy-text');
    label.textContent = ok ? 'Copied' : 'Press Ctrl+C';
    button.classList.toggle('copied', ok);
    if (!ok && 'select' in source) source.select();
    announce(ok ? 'Copied to the clipboard.' : 'Copying failed; the text is selected, press Ctrl+C.');
    clearTimeout(button.resetTimer);
    button.resetTimer = setTimeout(() => {
      label.textContent = 'Copy';
      button.classList.remove('copied');
    }, 1800);
  }

  // copyImage puts the code's PNG on the clipboard (the Async Clipboard API, in a secure
  // context such as HTTPS or localhost): the PNG is asked for in the same click, as a promise
  // the clipboard waits for, so that the browser still counts it as the user's gesture.
  async function copyImage(button) {
    const label = button.querySelector('.copy-text');
    const done = (ok, message) => {
      label.textContent = ok ? 'Copied' : 'Not copied';
      button.classList.toggle('copied', ok);
      $('copy-image-note').textContent = ok ? '' : message;
      $('copy-image-note').hidden = ok;
      announce(ok ? 'The image is on the clipboard.' : message);
      clearTimeout(button.resetTimer);
      button.resetTimer = setTimeout(() => {
        label.textContent = 'Copy image';
        button.classList.remove('copied');
      }, 1800);
    };
    const { body, missing, invalid } = collect();
    if (cooling() || missing.length || invalid.length || preview.dataset.state !== 'ready') return;
    if (!window.isSecureContext || !navigator.clipboard || typeof navigator.clipboard.write !== 'function' || typeof ClipboardItem === 'undefined') {
      done(false, 'This browser cannot copy images here (it needs HTTPS or localhost): download the PNG instead.');
      return;
    }
    const png = post({ ...body, format: 'png' }).then((res) => (res.ok ? res.blob() : Promise.reject(new Error(`the service answered ${res.status}`))));
    try {
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': png })]);
      done(true);
    } catch (e) {
      done(false, e && e.name === 'NotAllowedError'
        ? 'The browser did not allow copying the image: download the PNG instead.'
        : 'The image could not be copied: download the PNG instead.');
    }
  }

  function announce(text) {
    announcer.textContent = '';
    setTimeout(() => { announcer.textContent = text; }, 50);
  }

  // ---------------------------------------------------------------------------------------
  // The controls

  function showPanel(type) {
    for (const panel of document.querySelectorAll('.type-panel')) panel.hidden = panel.dataset.type !== type;
    state.panelType = type;
    lockStyle(type);
    setWords(type);
    updatePrivacy();
  }

  // loadPayments puts the payment types' panels (web/payments.html, at #payment-panels'
  // data-src) into the page, once, and sets up their controls: they stay out of the page's first
  // load (issue 29: under 35 KB gzip with the first code). It returns the promise of their being
  // there; after a failure, the next call asks again.
  function loadPayments() {
    if (!state.payments) {
      const place = $('payment-panels');
      state.payments = fetch(place.dataset.src, { credentials: 'same-origin' })
        .then((res) => (res.ok ? res.text() : Promise.reject(new Error(`the service answered ${res.status} ${res.statusText}`.trim()))),
          () => Promise.reject(new Error('the service did not answer: the connection or the server is down')))
        .then((html) => {
          place.innerHTML = html;
          setScheme();
          setDebtor();
          setLightning();
        })
        .catch((err) => {
          state.payments = null;
          throw err;
        });
    }
    return state.payments;
  }

  // choosePanel shows the panel of the type chosen in the picker, after loading it if it is a
  // payment type's (loadPayments). Until it is there, the type shown before stays in use
  // (currentType); if it cannot be loaded, that type is chosen again and the form's error area
  // says why.
  function choosePanel(type) {
    if ($('panel-' + type)) {
      showPanel(type);
      return;
    }
    const stillChosen = () => form.elements.namedItem('type').value === type;
    loadPayments().then(() => {
      if (!stillChosen()) return;
      showPanel(type);
      schedule(0);
    }, (err) => {
      if (!stillChosen()) return;
      $('type-' + state.panelType).checked = true;
      showGeneralError({ title: `Cannot show the ${TYPES[type].label} form`, message: err.message, hint: 'Check the connection, then choose it again.' });
    });
  }

  // The style fields a type's standard may fix (FIXED), each with how to read and set its value
  // as the request names it, and its controls (the first is the one the note describes).
  const radioLock = (name, fieldset) => ({
    get: () => form.elements.namedItem(name).value,
    set: (value) => { form.elements.namedItem(name).value = value; },
    controls: [$(fieldset)],
  });
  const colorLock = (name) => ({
    get: () => $('style-' + name).value,
    set: (value) => {
      $('style-' + name).value = value;
      syncColor(name, 'text');
    },
    controls: [$('style-' + name), $(`style-${name}-picker`)],
  });
  const STYLE_LOCKS = {
    logo: { get: () => ($('style-logo').checked ? 'banana' : 'none'), set: (value) => { $('style-logo').checked = value !== 'none'; }, controls: [$('style-logo')] },
    ecc: radioLock('ecc', 'style-ecc'),
    corners: radioLock('corners', 'style-corners'),
    color: colorLock('color'),
    background: colorLock('background'),
  };

  // lockStyle disables the style controls that the type's standard fixes (FIXED: for an EPC
  // payment, the logo switch and the error correction, at no logo and M; for a Swiss QR-bill,
  // also the corners and the colours, square and black on white), showing them so and saying
  // why; each field's own choice comes back when a type leaves it free again. The colour
  // presets are disabled while either colour is fixed.
  function lockStyle(type) {
    const fixed = FIXED[type] || null;
    const style = fixed ? fixed.style : {};
    for (const [name, lock] of Object.entries(STYLE_LOCKS)) {
      const locked = name in style;
      if (locked && !(name in state.styleBeforeFixed)) state.styleBeforeFixed[name] = lock.get();
      if (!locked && name in state.styleBeforeFixed) {
        lock.set(state.styleBeforeFixed[name]);
        delete state.styleBeforeFixed[name];
      }
      if (locked) lock.set(style[name]);
      for (const el of lock.controls) el.disabled = locked;
      const el = lock.controls[0];
      const ids = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter((id) => id && id !== 'style-fixed-note');
      if (locked) ids.push('style-fixed-note');
      if (ids.length) el.setAttribute('aria-describedby', ids.join(' '));
      else el.removeAttribute('aria-describedby');
    }
    for (const preset of document.querySelectorAll('.preset')) preset.disabled = 'color' in style || 'background' in style;
    const note = $('style-fixed-note');
    note.hidden = !fixed;
    note.textContent = fixed ? fixed.why.charAt(0).toUpperCase() + fixed.why.slice(1) + '.' : '';
  }

  // setWords shows the words around the code that a type takes: none on a Swiss QR-bill, whose
  // payment part has its own texts (SIX IG QR-bill 2.3; the service refuses a caption), and the
  // destination on a link only (the service prints a public link's host and path). Hidden, their
  // controls are disabled (showFields), so not sent.
  function setWords(type) {
    showFields('style-words', type !== 'swissqr');
    showFields('style-destination', type === 'url');
    $('style-words-none').hidden = type !== 'swissqr';
  }

  // setAllDay switches the event's start and end between date-times and dates (an all-day
  // event), keeping the day, and the time for when it switches back.
  function setAllDay() {
    const allDay = $('event-all-day').checked;
    for (const el of [$('event-start'), $('event-end')]) {
      const want = allDay ? 'date' : 'datetime-local';
      if (el.type === want) continue;
      const value = el.value;
      if (allDay) {
        if (value) el.dataset.time = value.slice(11);
        el.type = 'date';
        el.value = value.slice(0, 10);
      } else {
        el.type = 'datetime-local';
        el.value = value ? `${value}T${el.dataset.time || '09:00'}` : '';
      }
    }
    $('event-end').min = $('event-start').value;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    $('event-time-help').textContent = allDay
      ? 'Dates only: the end is the last day of the event, included.'
      : `Times are in this browser’s time zone${zone ? ` (${zone})` : ''}, sent with their offset from UTC, so calendars anywhere show them right.`;
  }

  // showFields shows or hides a group of a panel's fields; hidden, its controls are disabled,
  // so that they are neither sent nor required.
  function showFields(id, shown) {
    const group = $(id);
    group.hidden = !shown;
    for (const el of group.querySelectorAll('input, textarea')) el.disabled = !shown;
  }

  // setRequired marks a control required or not, and shows its label's "(optional)" note
  // (data-optional-note) when it is not.
  function setRequired(el, required) {
    el.toggleAttribute('data-required', required);
    const note = el.labels[0] && el.labels[0].querySelector('[data-optional-note]');
    if (note) note.hidden = required;
  }

  // setPurpose shows the payment's free text or its creditor reference: an EPC code carries one
  // of them, never both, and the other is disabled so that it is not sent.
  function setPurpose() {
    const reference = form.elements.namedItem('epc-purpose').value === 'reference';
    showFields('epc-reference-field', reference);
    showFields('epc-remittance-field', !reference);
  }

  // emvcoScheme returns the EMV merchant code's scheme radio that is checked, which holds what
  // the scheme's fields are called and read (data-*, in web/payments.html).
  const emvcoScheme = () => form.querySelector('input[name="emvco-scheme"]:checked') || $('emvco-scheme-pix');

  // setScheme shows the EMV merchant code's fields that its scheme reads (its radio's data-*):
  // the scheme's identifier, country and currency for another scheme only, the description for
  // Pix only; the merchant's name and city are optional for PromptPay.
  function setScheme() {
    const radio = emvcoScheme();
    const scheme = radio.dataset;
    showFields('emvco-scheme-field', radio.value === 'other');
    showFields('emvco-region-fields', radio.value === 'other');
    showFields('emvco-message-field', 'message' in scheme);
    for (const id of ['emvco-name', 'emvco-city']) setRequired($(id), 'named' in scheme);
    $('emvco-key-label').textContent = scheme.key;
    $('emvco-key').placeholder = scheme.placeholder;
    $('emvco-key-help').textContent = scheme.help;
    $('emvco-reference-help').textContent = scheme.reference;
    $('emvco-amount-note').textContent = scheme.currency ? `(${scheme.currency}, optional)` : '(optional)';
  }

  // setDebtor shows the Swiss QR-bill's payer's address, or leaves it out (the guidelines'
  // ultimate debtor is optional as a whole).
  function setDebtor() {
    showFields('swissqr-debtor-fields', $('swissqr-debtor').checked);
  }

  // setLightning makes the bitcoin address optional once a Lightning invoice is given (BIP 321:
  // an empty address with a payment instruction in a parameter).
  function setLightning() {
    setRequired($('bitcoin-address'), $('bitcoin-lightning').value.trim() === '');
  }

  // showPrintSize tells how large the PDF and EPS print: size pixels at 300 dpi.
  function showPrintSize() {
    const input = $('style-size');
    const size = Number(input.value);
    const el = $('style-size-print');
    if (input.value === '' || !Number.isInteger(size) || size < Number(input.min) || size > Number(input.max)) {
      el.textContent = `The PDF and EPS downloads print at ${PRINT_DPI} dpi: a pixel is 1/${PRINT_DPI} inch.`;
      return;
    }
    const inches = size / PRINT_DPI;
    el.textContent = `Prints at ${(inches * 25.4).toFixed(1)} mm (${inches.toFixed(2)} in) at ${PRINT_DPI} dpi, as PDF or EPS.`;
  }

  const HEX = /^#?([0-9a-fA-F]{6})$/;

  function syncColor(name, from) {
    const text = $('style-' + name);
    const picker = $(`style-${name}-picker`);
    if (from === 'picker') {
      text.value = picker.value.toUpperCase();
    } else {
      const m = HEX.exec(text.value.trim());
      if (m) picker.value = '#' + m[1].toLowerCase();
    }
    showContrast();
  }

  // showContrast tells whether scanners can read the colours, as the service judges them: it
  // asks GET /api/contrast (the one colour rule, which every code is held to; not
  // rate-limited), dropping the answer to an earlier pair.
  function showContrast() {
    const fg = HEX.exec($('style-color').value.trim());
    const bg = HEX.exec($('style-background').value.trim());
    const el = $('contrast');
    for (const p of document.querySelectorAll('.preset')) {
      p.setAttribute('aria-pressed', String(!!(fg && bg && p.dataset.color === fg[1].toUpperCase() && p.dataset.background === bg[1].toUpperCase())));
    }
    if (state.contrastController) state.contrastController.abort();
    state.contrastController = null;
    // #contrast is a live region: it is written only when it says something new.
    const say = (text) => { if (el.textContent !== text) el.textContent = text; };
    if (!fg || !bg) {
      say('Scanners need the colour clearly darker than the background.'); // the field says what a colour is
      el.classList.remove('bad');
      return;
    }
    const controller = new AbortController();
    state.contrastController = controller;
    fetch(`/api/contrast?color=${fg[1]}&background=${bg[1]}`, { signal: controller.signal })
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then((c) => {
        if (state.contrastController !== controller) return;
        const suggestion = c.suggestion.color !== c.color ? `try the colour ${c.suggestion.color}` : `try the background ${c.suggestion.background}`;
        say(c.readable
          ? `Contrast ${c.wcag_ratio.toFixed(1)}:1 and luma ${Math.round(c.color_luma)} on ${Math.round(c.background_luma)}: scanners can read these colours.`
          : `${c.message} For example, ${suggestion}.`);
        el.classList.toggle('bad', !c.readable);
      })
      .catch((err) => {
        if (err.name === 'AbortError') return;
        say('Scanners need the colour clearly darker than the background.');
        el.classList.remove('bad');
      });
  }

  function setSecurity() {
    const security = form.elements.namedItem('security').value;
    const password = $('wifi-password');
    const open = security === 'nopass';
    password.disabled = open;
    $('wifi-password-toggle').disabled = open;
    $('wifi-password-help').textContent = open
      ? 'An open network has no password.'
      : security === 'WEP'
        ? 'WEP: 5, 13 or 16 characters, or 10, 26, 32 or 58 hexadecimal digits. It goes into the code only.'
        : 'WPA: 8 to 63 characters. It goes into the code only: never into a link, a log or storage.';
  }

  function setMarginOutput() {
    const m = $('style-margin').value;
    $('style-margin-out').textContent = `${m} module${m === '1' ? '' : 's'}`;
    const help = $('style-margin-help');
    const small = Number(m) < 4;
    help.textContent = small
      ? `Below the 4 modules scanners want: many fail unless the code sits on a wide plain area.`
      : 'The empty border around the code. Scanners want 4; less only when the background around it is plain.';
    help.classList.toggle('warn', small);
  }

  function countText() {
    const n = [...$('text-text').value].length;
    const counter = $('text-text-count');
    counter.textContent = `${n.toLocaleString('en')} / ${MAX_TEXT.toLocaleString('en')}`;
    counter.classList.toggle('over', n > MAX_TEXT);
  }

  // resetStyle puts every style control back to the default the server filled into the page.
  function resetStyle() {
    for (const el of form.querySelectorAll('#style-color, #style-color-picker, #style-background, #style-background-picker, #style-size, #style-size-range, #style-margin, #style-caption')) {
      el.value = el.defaultValue;
    }
    for (const el of form.querySelectorAll('input[name="corners"], input[name="ecc"], input[name="caption_position"], #style-logo, #style-show_destination')) el.checked = el.defaultChecked;
    state.styleBeforeFixed = {}; // the defaults are what the other types get back
    lockStyle(currentType());
    showPrintSize();
    syncColor('color', 'text');
    syncColor('background', 'text');
    setMarginOutput();
    schedule(0);
  }

  // ---------------------------------------------------------------------------------------
  // Wiring

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    update();
  });

  form.addEventListener('input', (e) => {
    const t = e.target;
    if (t.readOnly) return;
    switch (t.id) {
      case 'style-color-picker': syncColor('color', 'picker'); break;
      case 'style-background-picker': syncColor('background', 'picker'); break;
      case 'style-color': syncColor('color', 'text'); break;
      case 'style-background': syncColor('background', 'text'); break;
      case 'style-size-range':
        $('style-size').value = t.value;
        showPrintSize();
        showPrintHelp();
        break;
      case 'style-size':
        if (t.value !== '') $('style-size-range').value = t.value;
        showPrintSize();
        showPrintHelp();
        break;
      case 'event-all-day': setAllDay(); break;
      case 'event-start': $('event-end').min = t.value; break;
      case 'style-margin': setMarginOutput(); break;
      case 'text-text': countText(); break;
      default: break;
    }
    if (t.closest('.type-panel')) endSample();
    if (t.name === 'type') choosePanel(t.value);
    if (t.name === 'security') setSecurity();
    if (t.name === 'epc-purpose') setPurpose();
    if (t.name === 'emvco-scheme') setScheme();
    if (t.id === 'swissqr-debtor') setDebtor();
    if (t.id === 'bitcoin-lightning') setLightning();
    // Discrete choices answer at once; typing and dragging wait for a pause.
    schedule(t.type === 'radio' || t.type === 'checkbox' ? 0 : typingPause(e));
  });
  // Some browsers fire only change for radios and checkboxes.
  form.addEventListener('change', (e) => {
    if ((e.target.type === 'radio' || e.target.type === 'checkbox') && e.target.name === 'type') choosePanel(e.target.value);
  });
  // The payment types' panels are asked for as soon as the user reaches for one of them (once
  // they are in the page, loadPayments asks nothing more).
  for (const event of ['pointerenter', 'focusin']) {
    $('types-payments').closest('.type-group').addEventListener(event, () => loadPayments().catch(() => {}));
  }

  $('wifi-password-toggle').addEventListener('click', (e) => {
    const button = e.currentTarget;
    const input = $('wifi-password');
    const show = input.type === 'password';
    input.type = show ? 'text' : 'password';
    button.setAttribute('aria-pressed', String(show));
    button.querySelector('.reveal-text').textContent = show ? 'Hide' : 'Show';
  });

  for (const preset of document.querySelectorAll('.preset')) {
    preset.addEventListener('click', () => {
      $('style-color').value = '#' + preset.dataset.color;
      $('style-background').value = '#' + preset.dataset.background;
      syncColor('color', 'text');
      syncColor('background', 'text');
      schedule(0);
    });
  }

  $('style-reset').addEventListener('click', resetStyle);
  for (const format of DOWNLOADS) $('download-' + format).addEventListener('click', (e) => download(format, e.currentTarget));
  $('form-error-retry').addEventListener('click', () => {
    state.shownKey = null;
    update();
  });
  for (const button of document.querySelectorAll('button.copy')) button.addEventListener('click', () => copy(button));
  $('copy-image').addEventListener('click', (e) => copyImage(e.currentTarget));
  // The small copy leads to the code without writing #preview over a settings link's fragment.
  $('mini-preview').addEventListener('click', (e) => {
    e.preventDefault();
    $('preview-heading').focus({ preventScroll: true });
    preview.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  });
  // A settings link opened in this tab (only its fragment changes) fills the form again.
  window.addEventListener('hashchange', () => {
    if (location.hash === '#' + fragmentOf(collect().body)) return; // written by this page
    if (readFragment()) {
      showPanel(currentType());
      syncColor('color', 'text');
      syncColor('background', 'text');
      showPrintSize();
      setMarginOutput();
      countText();
      schedule(0);
    }
  });

  // The examples name this service's own address.
  for (const el of document.querySelectorAll('.origin')) el.textContent = location.origin;

  // Start from a settings link, else from what the form holds (a reload keeps typed values in
  // some browsers).
  readFragment();
  state.started = true;
  choosePanel(form.elements.namedItem('type').value || 'url');
  setSecurity();
  setAllDay();
  setPurpose();
  showPrintSize();
  setMarginOutput();
  countText();
  syncColor('color', 'text');
  syncColor('background', 'text');
  update();
})();
