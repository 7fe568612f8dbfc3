// railbook serve: forms posted in place, the table refreshed on server-sent events, the map's hexes clickable.
"use strict";
(function () {
  let selected = null;

  function table() { return document.getElementById("table"); }

  function say(text) {
    const box = document.getElementById("message");
    if (box) { box.textContent = text || ""; box.className = text ? "error" : ""; }
  }

  async function refresh() {
    const t = table();
    if (!t) return;
    const r = await fetch("/games/" + t.dataset.game + "/table", { headers: { "X-Requested-With": "fetch" } });
    if (!r.ok) return;
    const html = await r.text();
    const keep = document.getElementById("message") ? document.getElementById("message").textContent : "";
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const fresh = holder.firstElementChild;
    t.replaceWith(fresh);
    if (keep) say(keep);
    if (selected) { openHex(selected, true); }
  }

  async function openHex(hex, quiet) {
    const t = table();
    const panel = document.getElementById("hexpanel");
    if (!t || !panel) return;
    const hit = t.querySelector('.hit[data-hex="' + CSS.escape(hex) + '"]');
    t.querySelectorAll(".hit.selected").forEach((el) => el.classList.remove("selected"));
    if (!hit || !(hit.classList.contains("lay") || hit.classList.contains("token"))) {
      selected = null;
      panel.innerHTML = quiet ? "" : '<p class="hint">Nothing to do on ' + hex + ".</p>";
      return;
    }
    selected = hex;
    hit.classList.add("selected");
    const r = await fetch("/games/" + t.dataset.game + "/hex/" + encodeURIComponent(hex));
    if (r.ok) panel.innerHTML = await r.text();
  }

  document.addEventListener("submit", async (ev) => {
    const form = ev.target;
    if (!form.classList || !form.classList.contains("act")) return;
    ev.preventDefault();
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => (b.disabled = true));
    try {
      const r = await fetch(form.action, {
        method: "POST",
        body: new URLSearchParams(new FormData(form)),
        headers: { "X-Requested-With": "fetch" },
      });
      const data = await r.json().catch(() => ({ ok: false, error: "the server answered " + r.status }));
      say(data.ok ? "" : data.error);
      if (data.ok && form.classList.contains("tile")) selected = null;
      if (data.ok && form.classList.contains("token")) selected = null;
      await refresh();
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  });

  document.addEventListener("click", (ev) => {
    const hit = ev.target.closest && ev.target.closest(".hit");
    if (hit && table()) openHex(hit.dataset.hex, false);
  });

  document.addEventListener("keydown", (ev) => {
    const hit = ev.target.closest && ev.target.closest(".hit");
    if (hit && table() && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      openHex(hit.dataset.hex, false);
      return;
    }
    const w = document.getElementById("watch");
    if (!w || ev.target.closest("input, select, textarea")) return;
    const link = w.querySelector('a.nav[data-key="' + ev.key + '"]');
    if (link) { ev.preventDefault(); window.location = link.href; }
  });

  function listen() {
    const t = table();
    if (!t || !window.EventSource) return;
    const source = new EventSource("/games/" + t.dataset.game + "/events");
    source.addEventListener("rev", (ev) => {
      const now = table();
      if (now && ev.data !== now.dataset.rev) refresh();
    });
  }

  function titleOptions() {
    const form = document.getElementById("new-game");
    if (!form) return;
    const select = form.querySelector('select[name="title"]');
    const show = () => form.querySelectorAll(".option").forEach((el) => {
      el.hidden = el.dataset.title !== select.value;
    });
    select.addEventListener("change", show);
    show();
  }

  document.addEventListener("DOMContentLoaded", () => { listen(); titleOptions(); });
})();
