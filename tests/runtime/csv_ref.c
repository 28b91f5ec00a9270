/* csv_ref.c: runtime/csv.c built without its plain path (the one-pass
 * split and convert of plain records), its functions renamed ref_csv_*:
 * the masks and the careful path alone, which test_csv_gen.c runs beside
 * the library's reader on random token streams (the two must agree on
 * every event, line and message). */
#define SREMRT_CSV_NO_PLAIN 1
#define sremrt_csv_bytes ref_csv_bytes
#define sremrt_csv_open ref_csv_open
#define sremrt_csv_open_buf ref_csv_open_buf
#define sremrt_csv_close ref_csv_close
#define sremrt_csv_next ref_csv_next
#define sremrt_csv_line ref_csv_line
#define sremrt_csv_message ref_csv_message
#include "../../runtime/csv.c"
