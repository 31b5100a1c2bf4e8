/* The report page's files (src/host/report/report.html, report.css and the js/ files
 * concatenated in name order) as NUL-terminated strings, generated at build time by
 * cmake/embed_text.cmake (no network, no xxd). report.html holds the
 * markers @EVT_TITLE@, @EVT_CSS@, @EVT_JS@, @EVT_DATA@, @EVT_ANALYSES@ and @EVT_SUMMARY@ that
 * report_page.c replaces. */
#ifndef EVT_REPORT_ASSETS_H
#define EVT_REPORT_ASSETS_H

extern const char evt_report_html[];
extern const char evt_report_css[];
extern const char evt_report_js[];

#endif
